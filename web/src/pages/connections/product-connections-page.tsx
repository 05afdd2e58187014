// `#/p/:slug/connections`: the sources feeding one product: Stripe (the `payments` kind, with a
// key), Google Ads (`search_ads`, through a Google sign-in), Meta ads and a Facebook page
// (`social_ads_a`, `social_a`, through a Facebook sign-in or a token), LinkedIn ads
// (`social_ads_b`, a token) and the product's own databases (PostgreSQL, MySQL/MariaDB, MongoDB,
// with credentials and event maps). Each connection shows how its syncs are going, with test,
// sync now, replace and disconnect. Google sends the person back here with
// `?searchco_state=...` and Meta with `?socialco_state=...`, which open the grant's picker. The
// other source types the service will read are listed as coming later.

import { useCallback, useState } from 'preact/hooks';
import { href, setQuery } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { ConnectDatabase } from './connect-database';
import { ConnectionCard } from './connection-card';
import { isDatabaseKind } from './database-types';
import { PaymentsForm } from './payments-form';
import { GoogleAdsConnect, GoogleAdsGrant } from './search-ads-connect';
import { MetaGrant, SocialConnectOffers } from './social-connect';
import { useConnections } from './use-connections';
import type { Connection } from './types';
import { COMING_LATER } from './words';
import './connections.css';

export function ProductConnectionsPage({ slug, query }: { slug: string; query: URLSearchParams }) {
  const grantState = query.get('searchco_state');
  const socialState = query.get('socialco_state');
  return (
    <ProductFrame slug={slug} tab="/connections" actions={<a href={href('/connections')}>All connections</a>}>
      {(product) => <ProductConnections product={product} grantState={grantState} socialState={socialState} />}
    </ProductFrame>
  );
}

function ProductConnections({
  product,
  grantState,
  socialState,
}: {
  product: ProductRow;
  grantState: string | null;
  socialState: string | null;
}) {
  const ofProduct = useCallback((c: Connection) => c.product_slug === product.slug, [product.slug]);
  const connections = useConnections(ofProduct);
  const [notice, setNotice] = useState<string | null>(null);
  const leaveGrant = () => setQuery({ searchco_state: null });
  const leaveSocialGrant = () => setQuery({ socialco_state: null });

  return (
    <>
      <p>
        Connections read your sources into this product's reports, hourly and on demand. For Stripe, syncing turns
        successful charges into revenue (in {product.currency}) and refunds and disputes into negative rows, each
        matched to a customer by <code>metadata.user_id</code> or by email. Google Ads brings spend by campaign, ad
        group, keyword and ad; Meta and LinkedIn bring spend by campaign and ad, and a Facebook page its audience. For
        your own database, event maps say which tables become which funnel events.
      </p>
      {grantState && (
        <GoogleAdsGrant
          key={grantState}
          slug={product.slug}
          state={grantState}
          currency={product.currency}
          onDismiss={leaveGrant}
          onSelected={(name) => {
            setNotice(
              `Google Ads account ${name} is connected. Its first sync reads the last 30 days of spend within the hour.`,
            );
            leaveGrant();
            connections.reload();
          }}
        />
      )}
      {socialState && (
        <MetaGrant
          key={socialState}
          slug={product.slug}
          state={socialState}
          currency={product.currency}
          onDismiss={leaveSocialGrant}
          onSelected={(what) => {
            setNotice(`${what} connected. The first sync is due now and reads the last 30 days.`);
            leaveSocialGrant();
            connections.reload();
          }}
        />
      )}
      {notice && (
        <p role="status" class="trend-up" data-notice="connected">
          {notice}
        </p>
      )}
      <Await loaded={connections} what="Loading the connections">
        {(rows) => {
          const payments = rows.find((c) => c.kind === 'payments');
          const searchAds = rows.find((c) => c.kind === 'search_ads');
          return (
            <>
              {rows.length === 0 && (
                <Empty title="No connections yet">
                  Connect Stripe below with a secret or restricted key, Google Ads by signing in to Google, Meta by
                  signing in to Facebook, LinkedIn ads with a token, or your own database with its credentials: the
                  first sync reads the last 30 days.
                </Empty>
              )}
              {rows.map((connection) => (
                <ConnectionCard
                  key={connection.id}
                  connection={connection}
                  onChanged={connections.reload}
                  onSyncStarted={connections.watch}
                />
              ))}
              {!payments && (
                <article aria-labelledby="connect-payments-title">
                  <h2 id="connect-payments-title">Connect payments (Stripe)</h2>
                  <PaymentsForm slug={product.slug} replacing={false} onConnected={connections.reload} />
                </article>
              )}
              {!searchAds && !grantState && (
                <article aria-labelledby="connect-google-ads-title">
                  <h2 id="connect-google-ads-title">Connect Google Ads</h2>
                  <GoogleAdsConnect slug={product.slug} reconnect={false} />
                </article>
              )}
              <SocialConnectOffers
                slug={product.slug}
                currency={product.currency}
                connected={rows.map((c) => c.kind)}
                grantOpen={socialState !== null}
                onConnected={connections.reload}
              />
              <ConnectDatabase
                slug={product.slug}
                connected={rows.map((c) => c.kind).filter(isDatabaseKind)}
                onConnected={connections.reload}
              />
            </>
          );
        }}
      </Await>
      <section aria-labelledby="coming-later-title" class="coming-later">
        <h2 id="coming-later-title">Coming later</h2>
        <p class="muted">
          Sources the service will read once their connectors exist; until then send their data through the{' '}
          <a href={href(`/p/${product.slug}/tracking`)}>events API</a>.
        </p>
        <ul>
          {COMING_LATER.map((source) => (
            <li>{source}</li>
          ))}
        </ul>
      </section>
    </>
  );
}
