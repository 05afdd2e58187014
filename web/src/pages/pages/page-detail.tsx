// `#/p/:slug/pages/:id`: one landing page: its traffic over the window with the daily series,
// its friction (what the replay sources counted on it), the recordings that started on it,
// "Analyze" (the live page scored against the rubric; the result shows in place), earlier
// analyses newest first, and stopping tracking it.

import { useMemo } from 'preact/hooks';
import { count } from '../../format';
import { href, navigate } from '../../router';
import type { ProductRow } from '../../types';
import { LineChart } from '../../ui/chart';
import type { Series } from '../../ui/chart';
import { ConfirmAction } from '../../ui/confirm-action';
import { ProductFrame } from '../../ui/product-frame';
import { Await, ErrorNote } from '../../ui/states';
import { useAction, useApi } from '../../ui/use-api';
import { WindowPicker } from '../../ui/window-picker';
import { AnalysisView } from './analysis-view';
import { PageFriction } from './page-friction';
import { PageRecordings } from './page-recordings';
import { analyzePage, deletePage } from './requests';
import { TrafficChange } from './traffic-cell';
import type { LandingPageDetail, TrafficDay } from './types';
import './pages.css';

export function PageDetailPage({ slug, id, days }: { slug: string; id: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/pages" actions={<WindowPicker days={days} />}>
      {(product) => <DetailBody product={product} id={id} days={days} />}
    </ProductFrame>
  );
}

function DetailBody({ product, id, days }: { product: ProductRow; id: string; days: number }) {
  const slug = product.slug;
  const loaded = useApi<LandingPageDetail>(
    `/products/${encodeURIComponent(slug)}/landing-pages/${encodeURIComponent(id)}?days=${days}`,
  );
  const analyze = useAction(async () => {
    await analyzePage(slug, id);
    loaded.reload();
  });
  const remove = useAction(async () => {
    await deletePage(slug, id);
    navigate(`/p/${slug}/pages`);
    return true;
  });
  return (
    <Await loaded={loaded} what="Loading the page">
      {(page) => (
        <div class="landing-detail" data-page={page.path}>
          <p>
            <a href={href(`/p/${slug}/pages`)}>All pages</a>
          </p>
          <h2>
            <code>{page.path}</code>
            {page.is_excluded && <span class="badge muted"> excluded</span>}
          </h2>
          <p class="muted">
            <a href={page.url} rel="noopener noreferrer" target="_blank">
              {page.url}
            </a>{' '}
            · {page.source}
          </p>
          <dl class="landing-figures">
            <div>
              <dt>Visits, last {page.window_days} days</dt>
              <dd data-figure="visits">{count(page.traffic.visits)}</dd>
            </div>
            <div>
              <dt>The {page.window_days} days before</dt>
              <dd data-figure="previous">{count(page.traffic.previous_visits)}</dd>
            </div>
            <div>
              <dt>Change</dt>
              <dd data-figure="change">
                <TrafficChange traffic={page.traffic} />
              </dd>
            </div>
          </dl>
          <TrafficSeries series={page.traffic_series} />
          <PageFriction friction={page.friction} days={page.window_days} />
          <PageRecordings recordings={page.recordings} recordingsUrl={page.recordings_url} days={page.window_days} />

          <section aria-labelledby="analysis-title">
            <h2 id="analysis-title">Analysis</h2>
            <p class="muted">
              Fetches the live page and has the language model score it: headline, value proposition and call to
              action (20 each), social proof and readability (15), objection handling (10).
            </p>
            <button type="button" aria-busy={analyze.busy} disabled={analyze.busy} onClick={() => void analyze.run()}>
              Analyze
            </button>
            <ErrorNote error={analyze.error} />
            {page.analyses.length === 0 ? (
              <p class="muted">Not analyzed yet.</p>
            ) : (
              <ol class="analyses">
                {page.analyses.map((analysis) => (
                  <li key={analysis.id}>
                    <AnalysisView analysis={analysis} />
                  </li>
                ))}
              </ol>
            )}
          </section>

          <ConfirmAction
            label="Stop tracking"
            confirmLabel={`Stop tracking ${page.path}`}
            question="Its analyses are deleted; the path's traffic stays and shows again if you add it back."
            busy={remove.busy}
            error={remove.error}
            onConfirm={async () => (await remove.run()) === true}
          />
        </div>
      )}
    </Await>
  );
}

function TrafficSeries({ series }: { series: TrafficDay[] }) {
  const days = useMemo(() => series.map((row) => row.day), [series]);
  const lines = useMemo<Series[]>(
    () => [{ label: 'Visits', values: series.map((row) => row.visits), color: '#0a7d57' }],
    [series],
  );
  return (
    <figure data-series="Visits" data-total={series.reduce((sum, row) => sum + row.visits, 0)}>
      <LineChart days={days} series={lines} format={count} />
      <figcaption class="muted">Visits per UTC day.</figcaption>
    </figure>
  );
}
