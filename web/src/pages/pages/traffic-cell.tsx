// A page's visits with how they moved against the window before.

import { count } from '../../format';
import type { Traffic } from './types';

export function TrafficChange({ traffic }: { traffic: Traffic }) {
  if (traffic.change_pct === null) {
    return <span class="muted">{traffic.visits > 0 ? 'new' : '—'}</span>;
  }
  const rounded = Math.round(traffic.change_pct);
  const direction = rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat';
  return (
    <span class={`trend-${direction}`} data-change={traffic.change_pct}>
      {rounded > 0 ? '+' : ''}
      {count(rounded)}%
    </span>
  );
}
