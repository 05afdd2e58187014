// One connection of a product: what it is, how it is doing (status, last and next sync, how much
// history it has read, a run in progress, the last error), and what can be done with it: test
// the stored key, sync now (for the kinds that allow it; the others say why not), replace the
// key, disconnect. What only some kinds have (a database's event maps, Google Ads' URL suffix
// panel, Meta ads' campaign filter, signing in again, a new key or token) comes from the kind's
// module (`kinds/<kind>.tsx`): its facts, buttons, disconnect words and panels.

import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import { when } from '../../format';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { ConfirmAction } from '../../ui/confirm-action';
import type { CardExtras, CardProps } from './kind-module';
import { connectionLines, kindModule } from './kinds';
import type { Connection, Disconnected, SyncStarted, TestOutcome } from './types';
import { backfillWords, kindName, kindPath, noSyncNowReason, STATUS_WORDS, syncingWords } from './words';

/** A kind without extras. */
const NO_EXTRAS = (_: CardProps): CardExtras => ({});

export function ConnectionCard({
  connection,
  onChanged,
  onSyncStarted,
}: {
  connection: Connection;
  /** Re-reads the inventory after a write (new key, disconnect). */
  onChanged: () => void;
  /** Called once a run has started, so the page polls until it ends. */
  onSyncStarted: (connection: Connection) => void;
}) {
  const base = `/products/${encodeURIComponent(connection.product_slug)}/connections/${kindPath(connection.kind)}`;
  const headingId = `connection-${connection.id}`;
  const name = kindName(connection.kind);

  const [tested, setTested] = useState<TestOutcome | null>(null);
  const test = useAction(useCallback(() => api.post<TestOutcome>(`${base}/test`), [base]));
  const [started, setStarted] = useState<SyncStarted | null>(null);
  const sync = useAction(useCallback(() => api.post<SyncStarted>(`${base}/sync`), [base]));
  // The "sync started" note is about the run; once the run has booked an outcome the facts above
  // say how it went.
  useEffect(() => setStarted(null), [connection.last_sync_at, connection.last_error]);
  const disconnect = useAction(useCallback(() => api.post<Disconnected>(`${base}/disconnect`), [base]));

  const lines = connectionLines(connection);
  const noSyncNow = noSyncNowReason(connection.kind);
  // A card's kind never changes (cards are keyed by connection), so the same hook runs each time.
  const useExtras = kindModule(connection.kind)?.useCard ?? NO_EXTRAS;
  const extras = useExtras({ connection, headingId, onChanged });

  return (
    <article class="connection-card" aria-labelledby={headingId} data-connection={connection.kind}>
      <header>
        <h2 id={headingId}>
          {name}{' '}
          <span class={`badge connection-status connection-status-${connection.status}`}>
            {STATUS_WORDS[connection.status] ?? connection.status}
          </span>
        </h2>
      </header>
      <dl class="connection-facts">
        <dt>Set up with</dt>
        <dd>{lines.length ? lines.join(' · ') : 'no settings'}</dd>
        {extras.facts}
        <dt>Last sync</dt>
        <dd>{when(connection.last_sync_at, 'never')}</dd>
        <dt>Next sync</dt>
        <dd>{connection.syncing ? 'after this run' : when(connection.next_sync_at, 'not scheduled')}</dd>
        <dt>History</dt>
        <dd>{backfillWords(connection.backfill_days)}</dd>
        <dt>Now</dt>
        <dd aria-live="polite" aria-busy={connection.syncing}>
          {syncingWords(connection)}
        </dd>
        {connection.last_detail && (
          <>
            <dt>Last run read</dt>
            <dd class="connection-detail">{connection.last_detail}</dd>
          </>
        )}
        {connection.last_error && (
          <>
            <dt>Last error</dt>
            <dd class="error-note connection-error">{connection.last_error}</dd>
          </>
        )}
      </dl>

      <div class="row-actions">
        <button
          type="button"
          class="outline small"
          aria-busy={test.busy}
          disabled={test.busy}
          onClick={async () => {
            setTested(null);
            const answer = await test.run();
            if (answer) setTested(answer);
          }}
        >
          Test
        </button>
        {!noSyncNow && (
          <button
            type="button"
            class="outline small"
            aria-busy={sync.busy || connection.syncing}
            disabled={sync.busy || connection.syncing || connection.status === 'disabled'}
            onClick={async () => {
              setStarted(null);
              const answer = await sync.run();
              if (answer) {
                setStarted(answer);
                onSyncStarted(connection);
              }
            }}
          >
            {connection.syncing ? 'Syncing…' : 'Sync now'}
          </button>
        )}
        {extras.actions}
        <ConfirmAction
          label="Disconnect"
          confirmLabel={`Disconnect ${name}`}
          question={
            extras.disconnect ?? (
              <>
                Payback deletes the stored key and stops syncing. Everything already read (events, revenue, refunds)
                stays in your reports; connect again at any time to resume.
              </>
            )
          }
          busy={disconnect.busy}
          error={disconnect.error}
          onConfirm={async () => {
            const answer = await disconnect.run();
            if (answer) onChanged();
            return answer !== undefined;
          }}
        />
      </div>
      {noSyncNow && <p class="muted sync-note">{noSyncNow}</p>}
      {tested && (
        <p role="status" class={tested.ok ? 'trend-up' : 'error-note'}>
          {tested.ok ? 'Test passed' : 'Test failed'}: {tested.detail}
        </p>
      )}
      <ErrorNote error={test.error} />
      {started && (
        <p role="status" class="muted">
          {started.started ? `Sync started: ${started.detail}.` : `Not started: ${started.detail}.`}
        </p>
      )}
      <ErrorNote error={sync.error} />

      {extras.panels}
    </article>
  );
}
