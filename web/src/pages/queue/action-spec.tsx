// What approving a card would do, in words: for a spend proposal the network and the daily
// budget from -> to in the product's currency, and the rollback condition it carries.

import { money } from '../../format';
import type { GateResultSpec, SpendChangeSpec } from './types';
import { networkName } from './words';

function isSpendChange(spec: Record<string, unknown>): spec is SpendChangeSpec & Record<string, unknown> {
  return spec.kind === 'spend_change' && typeof spec.to_cents === 'number';
}

function isGateResult(spec: Record<string, unknown>): spec is GateResultSpec & Record<string, unknown> {
  return spec.kind === 'set_gate_result';
}

export function ActionSpec({ spec, currency }: { spec: Record<string, unknown> | null; currency: string | null }) {
  if (!spec) return null;
  if (isSpendChange(spec)) return <SpendChange spec={spec} currency={currency} />;
  if (isGateResult(spec)) {
    return (
      <p class="action-spec">
        Approving records the gate verdict <strong>{spec.gate_result}</strong> on the product.
      </p>
    );
  }
  return null;
}

function SpendChange({ spec, currency }: { spec: SpendChangeSpec; currency: string | null }) {
  // Without the product's currency (a product the portfolio no longer lists) show bare cents
  // in units rather than guess a currency.
  const show = (cents: number) => (currency ? money(cents, currency) : (cents / 100).toFixed(2));
  const from = spec.from_cents;
  return (
    <div class="action-spec">
      <p>
        <strong>{networkName(spec.network)}</strong>
        {spec.campaign_id ? <> campaign <code>{spec.campaign_id}</code></> : ' account budget'}: daily budget{' '}
        {from === null || from === undefined ? (
          <>
            to <strong data-money="to">{show(spec.to_cents)}</strong> (today's budget not given)
          </>
        ) : (
          <>
            from <span data-money="from">{show(from)}</span> to <strong data-money="to">{show(spec.to_cents)}</strong>
          </>
        )}
      </p>
      {spec.rollback_if && Object.keys(spec.rollback_if).length > 0 && (
        <p class="muted">Roll back if: {rollbackWords(spec.rollback_if, show)}</p>
      )}
    </div>
  );
}

function rollbackWords(condition: Record<string, unknown>, show: (cents: number) => string): string {
  const parts: string[] = [];
  const { cac_ceiling_cents: ceiling, window_days: windowDays, ...rest } = condition;
  if (typeof ceiling === 'number') {
    const days = typeof windowDays === 'number' ? windowDays : 7;
    parts.push(`CAC goes above ${show(ceiling)} over ${days} days`);
  } else if (windowDays !== undefined) {
    rest.window_days = windowDays;
  }
  for (const [key, value] of Object.entries(rest)) parts.push(`${key.replace(/_/g, ' ')}: ${JSON.stringify(value)}`);
  return parts.join('; ');
}
