// From search impressions to customers over the window, each step with the share of the step
// before it that reached it.

import { count, percent } from '../../format';
import type { DemandFunnel } from './types';

const STEPS: { key: keyof DemandFunnel; label: string }[] = [
  { key: 'impressions', label: 'Search impressions' },
  { key: 'clicks', label: 'Search clicks' },
  { key: 'visits', label: 'Visits' },
  { key: 'leads', label: 'Leads' },
  { key: 'customers', label: 'Customers' },
];

export function DemandFunnelSteps({ funnel }: { funnel: DemandFunnel }) {
  return (
    <ol class="demand-funnel">
      {STEPS.map((step, i) => {
        const value = funnel[step.key];
        const previous = i > 0 ? funnel[STEPS[i - 1].key] : null;
        return (
          <li data-step={step.key} data-value={value}>
            <span class="muted">{step.label}</span>
            <strong class="metric-value">{count(value)}</strong>
            {previous !== null && (
              <small class="muted" data-field="conversion">
                {previous > 0 ? `${percent(value / previous)} of the step before` : '—'}
              </small>
            )}
          </li>
        );
      })}
    </ol>
  );
}
