// `#/billing`: the workspace's plan (the trial and its days left, the subscription's state),
// its products and which of them are billable, the plans with what each includes, upgrading
// through Stripe Checkout (a redirect to the session's url) and managing the subscription in
// Stripe's portal. Checkout and the portal come back here (`?checkout=success|canceled`).

import { SettingsFrame } from '../account/settings-frame';
import { api } from '../../api';
import { count, when } from '../../format';
import { Await, ErrorNote } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useAction, useApi } from '../../ui/use-api';
import type { BillingSummary, PlanFeatures, PlanKey, PlanRow, ProductLine, RedirectUrl } from './types';

const FEATURE_LABELS: [keyof PlanFeatures, string][] = [
  ['exports', 'CSV and spreadsheet exports'],
  ['sheets_sync', 'Google Sheets sync'],
  ['ai_insights', 'AI scorecard insights'],
  ['suggestions', 'Metric suggestions'],
];

const STATUS_LABELS: Record<BillingSummary['plan_status'], string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment past due',
  canceled: 'Canceled',
};

export function BillingPage({ query }: { query: URLSearchParams }) {
  const summary = useApi<BillingSummary>('/billing');
  const returned = query.get('checkout');
  return (
    <SettingsFrame title="Billing" path="/billing">
      {returned === 'success' && (
        <p class="note" role="status">
          Thanks: your subscription shows here as soon as Stripe confirms it.
        </p>
      )}
      {returned === 'canceled' && (
        <p class="note" role="status">
          Checkout was canceled; nothing changed.
        </p>
      )}
      <Await loaded={summary} what="Loading billing">
        {(data) => <Billing summary={data} />}
      </Await>
    </SettingsFrame>
  );
}

function planName(summary: BillingSummary, key: PlanKey): string {
  return summary.plans.find((plan) => plan.key === key)?.name ?? key;
}

function Billing({ summary }: { summary: BillingSummary }) {
  return (
    <>
      <CurrentPlan summary={summary} />
      <Products summary={summary} />
      <Plans summary={summary} />
    </>
  );
}

function CurrentPlan({ summary }: { summary: BillingSummary }) {
  const portal = useAction(async () => {
    const { url } = await api.post<RedirectUrl>('/billing/portal', {});
    window.location.assign(url);
  });
  return (
    <section aria-labelledby="billing-plan">
      <h2 id="billing-plan">Your plan</h2>
      <dl class="facts">
        <dt>Plan</dt>
        <dd data-testid="billing-plan">{planName(summary, summary.plan)}</dd>
        <dt>Status</dt>
        <dd data-testid="billing-status">{STATUS_LABELS[summary.plan_status]}</dd>
        {summary.trial_days_left !== null && (
          <>
            <dt>Trial</dt>
            <dd data-testid="billing-trial">
              {summary.trial_days_left === 1 ? '1 day left' : `${summary.trial_days_left} days left`} (ends{' '}
              {when(summary.trial_ends_at)})
            </dd>
          </>
        )}
        {summary.plan_period_end && (
          <>
            <dt>Renews</dt>
            <dd>{when(summary.plan_period_end)}</dd>
          </>
        )}
        <dt>History read</dt>
        <dd>{count(summary.limits.history_days)} days</dd>
      </dl>
      {!summary.billing_available && (
        <p class="muted" data-testid="billing-unavailable">
          This server does not bill: every feature is included.
        </p>
      )}
      {summary.billing_available && summary.has_customer && (
        <>
          <button type="button" disabled={portal.busy} onClick={() => void portal.run()}>
            Manage billing
          </button>
          <ErrorNote error={portal.error} />
        </>
      )}
    </section>
  );
}

function Products({ summary }: { summary: BillingSummary }) {
  const columns: Column<ProductLine>[] = [
    { title: 'Product', cell: (line) => line.name },
    { title: 'Free until', cell: (line) => when(line.free_until) },
    { title: 'Billed', cell: (line) => (line.billable ? 'Yes' : 'Not yet') },
  ];
  return (
    <section aria-labelledby="billing-products">
      <h2 id="billing-products">Products</h2>
      <p class="muted">
        Each product is free for its first days, then joins the bill. You pay for{' '}
        <strong data-testid="billing-quantity">{count(summary.quantity)}</strong>{' '}
        {summary.quantity === 1 ? 'product' : 'products'} ({count(summary.billable_products)} billable of{' '}
        {count(summary.usage.products)}).
      </p>
      <Table columns={columns} rows={summary.product_lines} rowKey={(line) => line.slug} caption="Products and billing" />
    </section>
  );
}

function Plans({ summary }: { summary: BillingSummary }) {
  const checkout = useAction(async (plan: PlanKey) => {
    const { url } = await api.post<RedirectUrl>('/billing/checkout', { plan });
    window.location.assign(url);
  });
  const columns: Column<PlanRow>[] = [
    { title: 'Plan', cell: (plan) => plan.name },
    ...FEATURE_LABELS.map(([key, label]) => ({
      title: label,
      cell: (plan: PlanRow) => (plan.features[key] ? 'Included' : '—'),
    })),
    { title: 'History', cell: (plan) => `${count(plan.limits.history_days)} days` },
    {
      title: '',
      cell: (plan) => {
        if (plan.key === 'free' || !summary.billing_available) return null;
        if (summary.subscribed && summary.stored_plan === plan.key) return <span class="badge">current</span>;
        return (
          <button
            type="button"
            class="small"
            aria-label={`Upgrade to ${plan.name}`}
            disabled={checkout.busy}
            onClick={() => void checkout.run(plan.key)}
          >
            {summary.subscribed ? 'Switch' : 'Upgrade'}
          </button>
        );
      },
    },
  ];
  return (
    <section aria-labelledby="billing-plans">
      <h2 id="billing-plans">Plans</h2>
      <Table columns={columns} rows={summary.plans} rowKey={(plan) => plan.key} caption="Plans" />
      <ErrorNote error={checkout.error} />
    </section>
  );
}
