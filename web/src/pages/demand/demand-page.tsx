// `#/p/:slug/demand`: where the product's demand comes from before it becomes a visit. Search
// impressions and clicks down to customers, the daily trend, the search queries, the SEO tools'
// keyword ranks, the keywords competitors outrank it for, AI-search visibility, the domain's
// authority, and which sources feed which part (or a link to connect them). Each part without data says what to connect for it.

import type { ComponentChildren } from 'preact';
import { href } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { WindowPicker } from '../../ui/window-picker';
import { DemandFunnelSteps } from './demand-funnel';
import { DemandTrend } from './demand-trend';
import { QueriesTable } from './queries-table';
import { GapsTable } from './gaps-table';
import { RanksTable } from './ranks-table';
import { SourcesList } from './sources-list';
import type { Authority, DemandReport } from './types';
import { AuthorityFigures, VisibilityFigures } from './visibility-authority';
import './demand.css';

export function DemandPage({ slug, days }: { slug: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/demand" actions={<WindowPicker days={days} />}>
      {(product) => <DemandBody product={product} days={days} />}
    </ProductFrame>
  );
}

function DemandBody({ product, days }: { product: ProductRow; days: number }) {
  const report = useApi<DemandReport>(`/products/${encodeURIComponent(product.slug)}/demand?days=${days}`);
  return (
    <Await loaded={report} what="Loading the demand report">
      {(answer) => <DemandReportView report={answer} slug={product.slug} />}
    </Await>
  );
}

function DemandReportView({ report, slug }: { report: DemandReport; slug: string }) {
  const connections = href(`/p/${slug}/connections`);
  const anyConnected = report.sources.some((source) => source.connected);
  const searchDays = report.trend.some((day) => day.search_impressions > 0 || day.search_clicks > 0);
  const aiDays = report.trend.some((day) => day.ai_visibility !== null);
  const visibility = report.ai_visibility;
  const hasVisibility = visibility.score !== null || visibility.site_health !== null || visibility.engines.length > 0;
  const hasAuthority = (Object.values(report.authority) as Authority[keyof Authority][]).some((value) => value !== null);
  return (
    <div class="demand-report" data-window={report.window_days}>
      <p class="muted">
        Last {report.window_days} days: search demand from impressions to customers, and the organic reach behind it.
      </p>
      {!anyConnected && (
        <Empty title="No demand sources connected">
          <p>
            Connect a search console, an SEO tool or an AI-search visibility tool on the{' '}
            <a href={connections}>Connections</a> page: their queries, ranks and authority figures show up here after
            their first sync.
          </p>
        </Empty>
      )}
      <Part id="demand-funnel" title="Funnel">
        <DemandFunnelSteps funnel={report.funnel} />
      </Part>
      <Part id="demand-trend" title="Day by day">
        {searchDays || aiDays ? (
          <DemandTrend trend={report.trend} />
        ) : (
          <NothingYet title={`No search clicks or impressions in the last ${report.window_days} days`}>
            Connect a search console or a search engine's webmaster data to see them day by day.
          </NothingYet>
        )}
      </Part>
      <Part id="demand-queries" title="Search queries">
        {report.queries.length > 0 ? (
          <QueriesTable queries={report.queries} />
        ) : (
          <NothingYet title="No search queries in this window">
            Connect a search console or a search engine's webmaster data on the <a href={connections}>Connections</a>{' '}
            page to see which queries bring clicks.
          </NothingYet>
        )}
      </Part>
      <Part id="demand-ranks" title="Keyword ranks">
        {report.ranks.length > 0 ? (
          <RanksTable ranks={report.ranks} />
        ) : (
          <NothingYet title="No keyword ranks yet">
            Connect an SEO metrics tool or an AI-search visibility tool on the <a href={connections}>Connections</a>{' '}
            page to follow your keywords' positions.
          </NothingYet>
        )}
      </Part>
      <Part id="demand-gaps" title="Keyword gaps">
        {report.gaps.length > 0 ? (
          <GapsTable gaps={report.gaps} />
        ) : (
          <NothingYet title="No keyword gaps">
            No competitor outranks you for a tracked keyword, or none is tracked yet: add competitors to your AI-search
            visibility tool's project and connect it on the <a href={connections}>Connections</a> page.
          </NothingYet>
        )}
      </Part>
      <Part id="demand-ai" title="AI visibility">
        {hasVisibility ? (
          <VisibilityFigures visibility={visibility} />
        ) : (
          <NothingYet title="No AI-search visibility measured">
            Connect an AI-search visibility tool on the <a href={connections}>Connections</a> page to see how often AI
            answers mention the product, and the site's health.
          </NothingYet>
        )}
      </Part>
      <Part id="demand-authority" title="Authority">
        {hasAuthority ? (
          <AuthorityFigures authority={report.authority} />
        ) : (
          <NothingYet title="No authority figures yet">
            Connect an SEO metrics or a domain authority and backlinks tool on the <a href={connections}>Connections</a>{' '}
            page to see the domain's rating, backlinks and organic reach.
          </NothingYet>
        )}
      </Part>
      <Part id="demand-sources" title="Sources">
        <SourcesList slug={slug} sources={report.sources} />
      </Part>
    </div>
  );
}

function Part({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={`${id}-title`} data-part={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

function NothingYet({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <Empty title={title}>
      <p>{children}</p>
    </Empty>
  );
}
