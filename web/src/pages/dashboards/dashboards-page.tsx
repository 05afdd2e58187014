// `#/p/:slug/dashboards`: the product's stored dashboards, oldest first, and a new one composed
// from a prompt. The composer's spec is previewed with real numbers before anything is saved.

import { count, when } from '../../format';
import { href, navigate } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { CreateDashboard } from './create-dashboard';
import type { Dashboard } from './types';
import './dashboards.css';

export function DashboardsPage({ slug }: { slug: string }) {
  return <ProductFrame slug={slug} tab="/dashboards">{(product) => <DashboardsBody product={product} />}</ProductFrame>;
}

function DashboardsBody({ product }: { product: ProductRow }) {
  const list = useApi<Dashboard[]>(`/products/${encodeURIComponent(product.slug)}/dashboards`);
  return (
    <>
      <section aria-labelledby="dashboards-title">
        <h2 id="dashboards-title">Dashboards</h2>
        <Await loaded={list} what="Loading the dashboards">
          {(dashboards) =>
            dashboards.length === 0 ? (
              <Empty title="No dashboards yet">Describe what you want to see below and Payback lays it out.</Empty>
            ) : (
              <table class="dashboard-list">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Description</th>
                    <th scope="col">Widgets</th>
                    <th scope="col">Changed</th>
                  </tr>
                </thead>
                <tbody>
                  {dashboards.map((dashboard) => (
                    <tr data-dashboard={dashboard.id}>
                      <td>
                        <a href={href(`/p/${product.slug}/dashboards/${dashboard.id}`)}>{dashboard.name}</a>
                      </td>
                      <td>{dashboard.description ?? <span class="muted">—</span>}</td>
                      <td>{count(dashboard.spec.widgets.length)}</td>
                      <td>
                        {when(dashboard.updated_at ?? dashboard.created_at)}{' '}
                        <span class="muted">by {dashboard.updated_by ?? dashboard.created_by}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Await>
      </section>
      <CreateDashboard
        product={product}
        onCreated={(dashboard) => navigate(`/p/${product.slug}/dashboards/${dashboard.id}`)}
      />
    </>
  );
}
