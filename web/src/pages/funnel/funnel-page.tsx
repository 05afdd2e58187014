// `#/p/:slug/funnel`: how many people reached each step of the product's funnel in the window,
// by first-touch channel, the steps day by day, and the editor for the steps themselves.

import { count } from '../../format';
import { href } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { DefinitionEditor } from './definition-editor';
import { FunnelChart } from './funnel-chart';
import { FunnelTable, stagesOutside } from './funnel-table';
import type { FunnelDefinition, FunnelRow, FunnelSeriesRow } from './types';
import { WindowPicker } from '../../ui/window-picker';

export function FunnelPage({ slug, days }: { slug: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/funnel" actions={<WindowPicker days={days} />}>
      {(product) => <FunnelBody product={product} days={days} />}
    </ProductFrame>
  );
}

function FunnelBody({ product, days }: { product: ProductRow; days: number }) {
  const base = `/products/${encodeURIComponent(product.slug)}`;
  const report = useApi<FunnelRow[]>(`${base}/funnel?days=${days}`);
  const series = useApi<FunnelSeriesRow[]>(`${base}/funnel/series?days=${days}`);
  const definition = useApi<FunnelDefinition>(`${base}/funnel/definition`);

  return (
    <>
      <p>
        Each step counts the distinct people who reached that stage in the last {days} days, credited to the channel
        of their first touch; events without a person count one each under their own channel.
      </p>
      <Await loaded={definition} what="Loading the funnel steps">
        {(def) => (
          <>
            <section aria-labelledby="funnel-report-title">
              <h2 id="funnel-report-title">Funnel</h2>
              <Await loaded={report} what="Loading the funnel">
                {(rows) =>
                  rows.length === 0 ? (
                    <NoEvents slug={product.slug} days={days} />
                  ) : (
                    <>
                      <FunnelTable steps={def.steps} rows={rows} />
                      <OutsideNote outside={stagesOutside(def.steps, rows)} />
                    </>
                  )
                }
              </Await>
            </section>
            <section aria-labelledby="funnel-series-title">
              <h2 id="funnel-series-title">Day by day</h2>
              <Await loaded={series} what="Loading the daily volumes">
                {(rows) =>
                  rows.length === 0 ? (
                    <p class="muted">No events in this window yet.</p>
                  ) : (
                    <FunnelChart steps={def.steps} rows={rows} days={days} />
                  )
                }
              </Await>
            </section>
            <DefinitionEditor
              slug={product.slug}
              definition={def}
              onSaved={() => {
                definition.reload();
                report.reload();
              }}
            />
          </>
        )}
      </Await>
    </>
  );
}

function NoEvents({ slug, days }: { slug: string; days: number }) {
  return (
    <Empty title={`No funnel events in the last ${days} days`}>
      <p>
        Add the tracking snippet to your site from <a href={href(`/p/${slug}/tracking`)}>Tracking</a>, or send events
        server-side to <code>POST /products/{slug}/events</code>. Visits show up here within seconds.
      </p>
    </Empty>
  );
}

function OutsideNote({ outside }: { outside: { stage: string; volume: number }[] }) {
  if (outside.length === 0) return null;
  return (
    <p class="muted">
      Also seen in this window but not a step:{' '}
      {outside.map((o, i) => (
        <>
          {i > 0 && ', '}
          {o.stage} ({count(o.volume)})
        </>
      ))}
      . Add them below to follow them in the funnel.
    </p>
  );
}
