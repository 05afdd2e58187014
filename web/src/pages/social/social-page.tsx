// `#/p/:slug/social`: the product's organic social audience (followers and how they moved),
// each network's figures, the daily trend and the window's most engaged posts, from what the
// organic social sources read. Without any, it says what to connect.

import type { ComponentChildren } from 'preact';
import { href } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { WindowPicker } from '../../ui/window-picker';
import { AudienceFigures } from './audience';
import { NetworksTable } from './networks-table';
import { PostsList } from './posts-list';
import { SocialTrend } from './social-trend';
import type { SocialReport } from './types';
import './social.css';

export function SocialPage({ slug, days }: { slug: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/social" actions={<WindowPicker days={days} />}>
      {(product) => <SocialBody product={product} days={days} />}
    </ProductFrame>
  );
}

function SocialBody({ product, days }: { product: ProductRow; days: number }) {
  const report = useApi<SocialReport>(`/products/${encodeURIComponent(product.slug)}/social?days=${days}`);
  return (
    <Await loaded={report} what="Loading the social report">
      {(answer) => <SocialReportView report={answer} slug={product.slug} />}
    </Await>
  );
}

function SocialReportView({ report, slug }: { report: SocialReport; slug: string }) {
  const connections = href(`/p/${slug}/connections`);
  return (
    <div class="social-report" data-window={report.window_days}>
      <p class="muted">Last {report.window_days} days of the product's own social accounts.</p>
      {report.networks.length === 0 ? (
        <Empty title="No social accounts connected">
          <p>
            Connect the product's Facebook page (with its Instagram account) or its X account on the{' '}
            <a href={connections}>Connections</a> page: followers, impressions, engagement and posts show up here after
            their first sync.
          </p>
        </Empty>
      ) : (
        <>
          <Part id="social-audience" title="Audience">
            <AudienceFigures audience={report.audience} />
          </Part>
          <Part id="social-networks" title="Networks">
            <NetworksTable networks={report.networks} />
          </Part>
          <Part id="social-trend" title="Day by day">
            <SocialTrend trend={report.trend} />
          </Part>
          <Part id="social-posts" title="Posts">
            {report.posts.length > 0 ? (
              <PostsList posts={report.posts} />
            ) : (
              <Empty title={`No posts in the last ${report.window_days} days`} />
            )}
          </Part>
        </>
      )}
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
