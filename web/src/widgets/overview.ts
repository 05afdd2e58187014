// The built-in Overview of a product. It is not stored: every client draws it from this spec
// with the same renderer as stored dashboards.

import type { DashboardSpec } from './spec';

export const OVERVIEW_SPEC: DashboardSpec = {
  widgets: [
    { id: 'revenue', type: 'metric', metric: 'revenue_30d', size: 'sm' },
    { id: 'spend', type: 'metric', metric: 'spend_30d', size: 'sm' },
    { id: 'customers', type: 'metric', metric: 'customers_30d', size: 'sm' },
    { id: 'cac', type: 'metric', metric: 'cac', size: 'sm' },
    { id: 'ltv', type: 'metric', metric: 'ltv', size: 'sm' },
    { id: 'ltv-cac', type: 'metric', metric: 'ltv_cac', size: 'sm' },
    { id: 'visits', type: 'metric', metric: 'visits_30d', size: 'sm' },
    { id: 'leads', type: 'metric', metric: 'leads_30d', size: 'sm' },
    { id: 'revenue-series', type: 'timeseries', series: 'revenue', days: 30, size: 'md' },
    { id: 'spend-series', type: 'timeseries', series: 'spend', days: 30, size: 'md' },
    { id: 'revenue-by-channel', type: 'breakdown', measure: 'revenue_first', days: 30, size: 'md' },
    { id: 'funnel', type: 'funnel', days: 30, size: 'md' },
    { id: 'payback', type: 'payback', size: 'lg' },
    { id: 'queue', type: 'queue', size: 'md' },
    { id: 'spend-by-channel', type: 'breakdown', measure: 'spend', days: 30, size: 'md' },
  ],
};
