// The metric names a `metric` widget may show, each read from the product row with the
// honesty rules of the spec: CAC without customers reads "no customers", never $0.

import { count, money, moneyOr, ratio, trend } from '../format';
import type { ProductRow } from '../types';
import type { MetricName } from './spec';

export interface MetricReading {
  label: string;
  value: string;
  /** Against the previous 30 days, where the row carries it. */
  change?: { text: string; direction: 'up' | 'down' | 'flat' };
  hint?: string;
}

export const METRIC_LABELS: Record<MetricName, string> = {
  spend_30d: 'Spend, 30 days',
  revenue_30d: 'Revenue, 30 days',
  customers_30d: 'Customers, 30 days',
  cac: 'CAC',
  ltv: 'LTV',
  ltv_cac: 'LTV:CAC',
  visits_30d: 'Visits, 30 days',
  leads_30d: 'Leads, 30 days',
  pending_cards: 'Pending cards',
};

export function readMetric(metric: MetricName, row: ProductRow): MetricReading {
  const label = METRIC_LABELS[metric];
  const currency = row.currency;
  switch (metric) {
    case 'spend_30d':
      return {
        label,
        value: money(row.spend_30d_cents, currency),
        change: trend(row.spend_30d_cents, row.spend_prev_30d_cents),
        hint: `previous 30 days ${money(row.spend_prev_30d_cents, currency)}`,
      };
    case 'revenue_30d':
      return {
        label,
        value: money(row.revenue_30d_cents, currency),
        change: trend(row.revenue_30d_cents, row.revenue_prev_30d_cents),
        hint: `previous 30 days ${money(row.revenue_prev_30d_cents, currency)}`,
      };
    case 'customers_30d':
      return { label, value: count(row.customers_30d) };
    case 'cac':
      return { label, value: moneyOr(row.cac_cents, currency, 'no customers'), hint: 'spend / customers, 30 days' };
    case 'ltv':
      return { label, value: moneyOr(row.ltv_cents, currency, '—'), hint: 'net revenue per customer, all time' };
    case 'ltv_cac':
      return { label, value: ratio(row.ltv_cac), hint: 'LTV over CAC' };
    case 'visits_30d':
      return { label, value: count(row.visits_30d) };
    case 'leads_30d':
      return { label, value: count(row.leads_30d) };
    case 'pending_cards':
      return { label, value: count(row.pending_cards), hint: 'waiting in the queue' };
  }
}
