// `#/p/:slug/tracking`: how a product's pages send visits and events to Payback: the write key
// and its script tag, the same tag for a tag manager, server-side ingestion, and rotating the
// key when it has leaked or been pasted somewhere it should not be.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../api';
import { when } from '../../format';
import { href } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await } from '../../ui/states';
import { useAction, useApi } from '../../ui/use-api';
import { ConfirmAction } from '../../ui/confirm-action';
import { CopyBlock } from './copy-block';
import { TagManagerPanel } from './tag-manager-panel';
import type { RotatedKey, TrackingKeyInfo } from './types';

export function TrackingPage({ slug }: { slug: string }) {
  return (
    <ProductFrame slug={slug} tab="/tracking">
      {(product) => <TrackingBody product={product} />}
    </ProductFrame>
  );
}

function TrackingBody({ product }: { product: ProductRow }) {
  const path = `/products/${encodeURIComponent(product.slug)}/tracking-key`;
  // The first read mints the product's key, so this GET may create it.
  const info = useApi<TrackingKeyInfo>(path);
  const [rotated, setRotated] = useState<RotatedKey | null>(null);
  const rotate = useAction(useCallback(() => api.post<RotatedKey>(path), [path]));

  return (
    <Await loaded={info} what="Loading the tracking setup">
      {(setup) => (
        <>
          <p>
            Paste the snippet before <code>&lt;/head&gt;</code> on every page of{' '}
            {product.domain ? <strong>{product.domain}</strong> : 'your site'}. It sends a visit on each page load
            with where the visitor came from; call <code>svc.track(stage, …)</code> and{' '}
            <code>svc.identify(userId)</code> for later steps.
          </p>
          {rotated && (
            <p class="notice" role="status">
              New key is live: <code class="secret">{rotated.key}</code>. The old key stopped working; replace the
              snippet on your site with the one below.
            </p>
          )}
          <dl class="tracking-facts">
            <dt>Write key</dt>
            <dd>
              {setup.key ? <code class="secret" data-testid="write-key">{setup.key}</code> : 'none yet'}
              {setup.created_at && <small class="muted"> since {when(setup.created_at)}</small>}
            </dd>
            <dt>Ingest URL</dt>
            <dd>
              <code class="secret">{setup.ingest_url}</code>
            </dd>
            <dt>Tag manager</dt>
            <dd>{setup.gtm_connected ? 'connected' : 'not connected'}</dd>
          </dl>
          {setup.snippet && (
            <CopyBlock
              id="tracking-snippet"
              title="Snippet"
              text={setup.snippet}
              hint="The key is publishable: it can only add events to this product."
            />
          )}
          {setup.gtm_html && (
            <CopyBlock
              id="tracking-gtm"
              title="Tag manager HTML"
              text={setup.gtm_html}
              hint={
                setup.gtm_connected
                  ? 'Publish it below, or add it yourself as a Custom HTML tag firing on all pages.'
                  : 'Tag manager not connected: add this yourself as a Custom HTML tag firing on all pages.'
              }
            />
          )}
          {setup.gtm_deploy && (
            <TagManagerPanel slug={product.slug} deploy={setup.gtm_deploy} onPublished={() => info.reload()} />
          )}
          <CopyBlock
            id="tracking-curl"
            title="Server-side events"
            text={setup.curl_example}
            hint={
              <>
                Send signups, payments and other events from your backend with an{' '}
                <a href={href('/settings/keys')}>API key</a>. Amounts are integer cents in {product.currency}.
              </>
            }
          />
          <article aria-labelledby="tracking-verify-title">
            <h2 id="tracking-verify-title">How to verify</h2>
            <p>
              Load a page of your site with the snippet in place, then open{' '}
              <a href={href(`/p/${product.slug}/attribution`)}>Attribution</a>: the visit appears within seconds (also
              counted under Visits on the <a href={href(`/p/${product.slug}/funnel`)}>Funnel</a>).
            </p>
          </article>
          <article aria-labelledby="tracking-rotate-title">
            <h2 id="tracking-rotate-title">Rotate the key</h2>
            <p class="muted">Mint a new write key when the current one is used somewhere it should not be.</p>
            <ConfirmAction
              label="Rotate key"
              confirmLabel="Rotate now"
              buttonClass="outline contrast"
              question="The current key stops working at once: every page still carrying the old snippet stops sending events until you paste the new one."
              busy={rotate.busy}
              error={rotate.error}
              onConfirm={async () => {
                const answer = await rotate.run();
                if (answer) {
                  setRotated(answer);
                  info.reload();
                }
                return answer !== undefined;
              }}
            />
          </article>
        </>
      )}
    </Await>
  );
}
