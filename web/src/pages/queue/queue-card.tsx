// One card waiting for a person: what it is, who raised it, what approving does, and the four
// resolutions. A refused approval stays on the card with the policy engine's reason.

import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { until, when } from '../../format';
import { href } from '../../router';
import type { Card, ProductRow } from '../../types';
import { ErrorNote } from '../../ui/states';
import { ActionSpec } from './action-spec';
import { cardTypeName, policyCodeWords, proposerName } from './words';

type Resolution = 'approve' | 'reject' | 'snooze' | 'restore';

interface Refusal {
  message: string;
  policyCode: string | null;
}

export const MAX_SNOOZE_HOURS = 8784;

export function QueueCard({
  card,
  product,
  onResolved,
}: {
  card: Card;
  product: ProductRow | undefined;
  /** Called after every answered action, so the list reloads (a refused approval included). */
  onResolved: () => void;
}) {
  const [busy, setBusy] = useState<Resolution | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [snoozeHours, setSnoozeHours] = useState('24');
  const headingId = `card-${card.id}`;
  const settable = card.status === 'snoozed' || card.status === 'expired';

  const resolve = async (resolution: Resolution) => {
    const body: Record<string, number> = {};
    if (resolution === 'snooze') {
      const hours = Number(snoozeHours);
      if (!Number.isInteger(hours) || hours < 1 || hours > MAX_SNOOZE_HOURS) {
        setRefusal({ message: `Snooze for a whole number of hours from 1 to ${MAX_SNOOZE_HOURS}.`, policyCode: null });
        return;
      }
      body.snoozeHours = hours;
    }
    setBusy(resolution);
    setRefusal(null);
    try {
      await api.post(`/queue/${encodeURIComponent(card.id)}/${resolution}`, body);
    } catch (failure) {
      const error = failure instanceof ApiError ? failure : new ApiError(0, String(failure), null);
      setRefusal({ message: error.message, policyCode: error.policyCode });
    } finally {
      setBusy(null);
      onResolved();
    }
  };

  return (
    <article class="queue-card" aria-labelledby={headingId} data-card={card.id}>
      <header>
        <small class="muted">
          {cardTypeName(card.card_type)}
          {card.product_slug && (
            <>
              {' · '}
              <a href={href(`/p/${card.product_slug}`)}>{product?.name ?? card.product_slug}</a>
            </>
          )}
          {settable && <> · <mark>{card.status}</mark></>}
        </small>
        <h3 id={headingId}>{card.headline}</h3>
      </header>
      <p class="metric-line">{card.metric_line}</p>
      {card.detail && <p class="card-detail">{card.detail}</p>}
      <ActionSpec spec={card.action_spec} currency={product?.currency ?? null} />
      <p class="muted card-meta">
        Raised by {proposerName(card.proposed_by)} on {when(card.created_at)} · expires {until(card.expires_at)}
      </p>
      {refusal && <RefusalNote refusal={refusal} productSlug={card.product_slug} />}
      <footer class="card-actions">
        {settable ? (
          <button type="button" onClick={() => resolve('restore')} aria-busy={busy === 'restore'} disabled={busy !== null}>
            Restore
          </button>
        ) : (
          <>
            <button type="button" onClick={() => resolve('approve')} aria-busy={busy === 'approve'} disabled={busy !== null}>
              Approve
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() => resolve('reject')}
              aria-busy={busy === 'reject'}
              disabled={busy !== null}
            >
              Reject
            </button>
            <span class="snooze">
              <label>
                Snooze hours
                <input
                  type="number"
                  name="snoozeHours"
                  min={1}
                  max={MAX_SNOOZE_HOURS}
                  step={1}
                  value={snoozeHours}
                  onInput={(event) => setSnoozeHours((event.currentTarget as HTMLInputElement).value)}
                />
              </label>
              <button
                type="button"
                class="outline"
                onClick={() => resolve('snooze')}
                aria-busy={busy === 'snooze'}
                disabled={busy !== null}
              >
                Snooze
              </button>
            </span>
          </>
        )}
      </footer>
    </article>
  );
}

function RefusalNote({ refusal, productSlug }: { refusal: Refusal; productSlug: string | null }) {
  if (!refusal.policyCode) return <ErrorNote error={refusal.message} />;
  return (
    <div role="alert" class="error-note policy-refusal">
      <strong>Refused by policy — {policyCodeWords(refusal.policyCode)}.</strong>
      <br />
      {refusal.message}
      <br />
      <small>
        Code <code>{refusal.policyCode}</code>. The card stays in the queue: change the{' '}
        {productSlug ? <a href={href(`/p/${productSlug}/spend`)}>product's caps</a> : "product's caps"} or the{' '}
        <a href={href('/settings/policy')}>portfolio ceiling</a>, or reject it.
      </small>
    </div>
  );
}
