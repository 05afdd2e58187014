// Approved cards (`GET /queue?status=approved`), newest first, with what became of each spend
// change after the approval: applying (tries so far and when the next one comes), applied on the
// network (the daily budget read back before and after), refused or not applied (why), or
// failed (the error). Read again every few seconds while any change is still being applied.

import { money } from '../../format';
import { href } from '../../router';
import type { ProductRow } from '../../types';
import { ActionSpec } from './action-spec';
import type { ApprovedCard, Execution } from './types';
import { cardTypeName, networkName } from './words';
import './queue.css';

export function ApprovedList({
  cards,
  products,
}: {
  cards: ApprovedCard[];
  products: Map<string, ProductRow>;
}) {
  return (
    <section class="approved" aria-labelledby="approved-title">
      <h2 id="approved-title">Approved</h2>
      {cards.length === 0 ? (
        <p class="muted">No approved cards yet. Once you approve a spend change, this list shows it reaching the network.</p>
      ) : (
        <>
          <p class="muted">
            The latest approvals, newest first. An approved spend change is applied on its network right away, and tried
            again with growing waits when the network does not answer.
          </p>
          <ul class="approved-list">
            {cards.map((card) => {
              const product = card.product_slug ? products.get(card.product_slug) : undefined;
              return (
                <li key={card.id} data-card={card.id} aria-labelledby={`approved-${card.id}`}>
                  <strong id={`approved-${card.id}`}>{card.headline}</strong>
                  <br />
                  <small class="muted">
                    {cardTypeName(card.card_type)}
                    {card.product_slug && (
                      <>
                        {' · '}
                        <a href={href(`/p/${card.product_slug}`)}>{product?.name ?? card.product_slug}</a>
                      </>
                    )}
                  </small>
                  <ActionSpec spec={card.action_spec} currency={product?.currency ?? null} />
                  {card.execution && <ExecutionNote execution={card.execution} currency={product?.currency ?? null} />}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

/** A reason or error as the end of a sentence (without a period of its own). */
function clause(text: string | null | undefined, none: string): string {
  return (text ?? none).replace(/\.$/, '');
}

/** Seconds as a rough wait: "30 s", "4 min", "1 h". */
function wait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

const STATE_WORDS: Record<Execution['state'], string> = {
  applying: 'applying',
  applied: 'applied',
  refused: 'refused',
  failed: 'failed',
  not_applied: 'not applied',
};

export function ExecutionNote({ execution, currency }: { execution: Execution; currency: string | null }) {
  const show = (cents: number) => (currency ? money(cents, currency) : (cents / 100).toFixed(2));
  const network = execution.network ? networkName(execution.network) : 'the network';
  const attempts = execution.attempts ?? 0;
  const badge = (
    <span class={`badge execution-state execution-${execution.state}`}>{STATE_WORDS[execution.state] ?? execution.state}</span>
  );
  let body;
  switch (execution.state) {
    case 'applying':
      body = (
        <>
          Sending to {network}
          {attempts > 0 ? ` (${attempts} ${attempts === 1 ? 'try' : 'tries'} so far)` : ''}.
          {execution.error && <> The last try failed: {clause(execution.error, '')}.</>}
          {typeof execution.next_attempt_in_seconds === 'number' && (
            <> Next try about {wait(execution.next_attempt_in_seconds)} after the last one.</>
          )}
        </>
      );
      break;
    case 'applied':
      body = (
        <>
          Applied on {network}
          {typeof execution.before_cents === 'number' && typeof execution.after_cents === 'number' ? (
            <>
              : daily budget from <span data-money="before">{show(execution.before_cents)}</span> to{' '}
              <strong data-money="after">{show(execution.after_cents)}</strong>.
            </>
          ) : (
            '.'
          )}
          {execution.detail && (
            <>
              <br />
              <small class="muted" data-execution-detail>
                {execution.detail}
              </small>
            </>
          )}
        </>
      );
      break;
    case 'refused':
      body = (
        <>
          {network} refused the change: {clause(execution.reason ?? execution.error, 'no reason given')}. The budget there is
          unchanged.
        </>
      );
      break;
    case 'not_applied':
      body = <>Not applied: {clause(execution.reason ?? execution.error, 'no reason given')}.</>;
      break;
    case 'failed':
      body = (
        <>
          Failed after {attempts} {attempts === 1 ? 'try' : 'tries'}: {clause(execution.error, 'no error given')}.
        </>
      );
      break;
    default:
      body = <>{execution.detail ?? ''}</>;
  }
  const alert = execution.state === 'failed' || execution.state === 'refused';
  return (
    <p class={`execution${alert ? ' error-note' : ''}`} data-execution={execution.state} aria-live="polite">
      {badge} {body}
    </p>
  );
}
