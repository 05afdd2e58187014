// `#/p/:slug/connections`: the sources feeding one product. Each connection shows how its syncs
// are going, with test, sync now, replace and disconnect; each kind the product lacks is offered
// by its module (`kinds/<kind>.tsx`: Stripe with a key, Google Ads and Meta through a sign-in,
// LinkedIn ads with a token, the product's own databases with credentials and event maps). A
// provider sends the person back here with `?{provider}_state=...` (`searchco_state` from
// Google, `socialco_state` from Meta), which opens that grant's flow. The other source types
// the service will read are listed as coming later.

import { Fragment } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import { href, setQuery } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { ConnectionCard } from './connection-card';
import { DetectIntegrations } from './detect-integrations';
import { GrantFlow, grantStateParam } from './grant-connect';
import type { GrantProvider } from './kind-module';
import { comingLater, grantKinds, grantProviders, offers } from './kinds';
import { useConnections } from './use-connections';
import type { Connection } from './types';
import './connections.css';

/** A grant being finished on the page: its provider and the state from the address. */
interface OpenGrant {
  provider: GrantProvider;
  state: string;
}

export function ProductConnectionsPage({ slug, query }: { slug: string; query: URLSearchParams }) {
  const grants = grantProviders().flatMap((provider) => {
    const state = query.get(grantStateParam(provider));
    return state ? [{ provider, state }] : [];
  });
  return (
    <ProductFrame slug={slug} tab="/connections" actions={<a href={href('/connections')}>All connections</a>}>
      {(product) => <ProductConnections product={product} grants={grants} />}
    </ProductFrame>
  );
}

function ProductConnections({ product, grants }: { product: ProductRow; grants: OpenGrant[] }) {
  const ofProduct = useCallback((c: Connection) => c.product_slug === product.slug, [product.slug]);
  const connections = useConnections(ofProduct);
  const [notice, setNotice] = useState<string | null>(null);
  const leave = (provider: GrantProvider) => setQuery({ [grantStateParam(provider)]: null });
  // An open grant's own article stands in for its kinds' offers.
  const grantOpen = (kind: string) => grants.some(({ provider }) => grantKinds(provider).some((k) => k.kind === kind));

  return (
    <>
      <p>
        Connections read your sources into this product's reports, hourly and on demand. For Stripe, syncing turns
        successful charges into revenue (in {product.currency}) and refunds and disputes into negative rows, each
        matched to a customer by <code>metadata.user_id</code> or by email. Google Ads brings spend by campaign, ad
        group, keyword and ad; Meta and LinkedIn bring spend by campaign and ad, and a Facebook page its audience. For
        your own database, event maps say which tables become which funnel events.
      </p>
      {grants.map(({ provider, state }) => (
        <GrantFlow
          key={`${provider.name}:${state}`}
          provider={provider}
          kinds={grantKinds(provider)}
          slug={product.slug}
          state={state}
          currency={product.currency}
          onDismiss={() => leave(provider)}
          onSelected={(what) => {
            setNotice(what);
            leave(provider);
            connections.reload();
          }}
        />
      ))}
      {notice && (
        <p role="status" class="trend-up" data-notice="connected">
          {notice}
        </p>
      )}
      <Await loaded={connections} what="Loading the connections">
        {(rows) => {
          const connected = rows.map((c) => c.kind);
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
              {offers().map(({ offer, kinds }, index) => {
                const missing = kinds.filter((k) => !connected.includes(k.kind));
                // A kind whose grant is open holds back its whole offer, as the sign-in covers it.
                if (missing.length === 0 || kinds.some((k) => grantOpen(k.kind))) return null;
                return (
                  <Fragment key={index}>
                    {offer.render({
                      slug: product.slug,
                      currency: product.currency,
                      missing,
                      onConnected: connections.reload,
                    })}
                  </Fragment>
                );
              })}
            </>
          );
        }}
      </Await>
      <DetectIntegrations slug={product.slug} />
      <section aria-labelledby="coming-later-title" class="coming-later">
        <h2 id="coming-later-title">Coming later</h2>
        <p class="muted">
          Sources the service will read once their connectors exist; until then send their data through the{' '}
          <a href={href(`/p/${product.slug}/tracking`)}>events API</a>.
        </p>
        <ul>
          {comingLater().map((source) => (
            <li>{source}</li>
          ))}
        </ul>
      </section>
    </>
  );
}
