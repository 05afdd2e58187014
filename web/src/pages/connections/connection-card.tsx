// One connection of a product: what it is, how it is doing (status, last and next sync, how much
// history it has read, a run in progress, the last error), and what can be done with it: test
// the stored key, sync now (for the kinds that allow it; the others say why not), replace the
// key, disconnect. A database also shows its event maps and opens their editor (at once while it
// is staged without any); Google Ads opens its URL suffix panel and can sign in to Google again;
// Meta ads opens its campaign filter, and the social kinds can sign in again or take a new token.

import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import { when } from '../../format';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { ConfirmAction } from '../../ui/confirm-action';
import { DatabaseForm } from './database-form';
import { isDatabaseKind } from './database-types';
import { mapTitle } from './event-map-draft';
import { EventMapEditor } from './event-map-editor';
import { CampaignFilter } from './campaign-filter';
import { PaymentsForm } from './payments-form';
import { GoogleAdsConnect } from './search-ads-connect';
import { SocialReconnect } from './social-connect';
import { UrlSuffixPanel } from './url-suffix-panel';
import type { Connection, Disconnected, PaymentStage, SyncStarted, TestOutcome } from './types';
import {
  backfillWords,
  campaignPrefixes,
  configLines,
  isSocialKind,
  kindName,
  kindPath,
  mapCountWords,
  noSyncNowReason,
  socialDisconnectWords,
  STATUS_WORDS,
  syncingWords,
} from './words';

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

  const lines = configLines(connection.config, connection.kind);
  const stage = connection.config?.default_stage;
  const database = isDatabaseKind(connection.kind) ? connection.kind : null;
  const maps = connection.event_maps ?? [];
  const [editing, setEditing] = useState(database !== null && maps.length === 0);
  const editorId = `${headingId}-maps`;
  const searchAds = connection.kind === 'search_ads';
  const noSyncNow = noSyncNowReason(connection.kind);
  const [suffixOpen, setSuffixOpen] = useState(false);
  const suffixId = `${headingId}-suffix`;
  const social = isSocialKind(connection.kind) ? connection.kind : null;
  const metaAds = social === 'social_ads_a';
  const [filterOpen, setFilterOpen] = useState(false);
  const filterId = `${headingId}-filter`;

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
        {database && (
          <>
            <dt>Event maps</dt>
            <dd>
              <span class="map-count">{mapCountWords(maps)}</span>
              {maps.length > 0 && `: ${maps.map(mapTitle).join(', ')}`}
              {connection.status === 'pending' && ' (staged: nothing is read until the maps are activated)'}
            </dd>
          </>
        )}
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
        {searchAds && (
          <button
            type="button"
            class="outline small"
            aria-expanded={suffixOpen}
            aria-controls={suffixId}
            onClick={() => setSuffixOpen((open) => !open)}
          >
            {suffixOpen ? 'Close URL suffix' : 'URL suffix'}
          </button>
        )}
        {metaAds && (
          <button
            type="button"
            class="outline small"
            aria-expanded={filterOpen}
            aria-controls={filterId}
            onClick={() => setFilterOpen((open) => !open)}
          >
            {filterOpen ? 'Close campaign filter' : 'Campaign filter'}
          </button>
        )}
        {database && (
          <button
            type="button"
            class="outline small"
            aria-expanded={editing}
            aria-controls={editorId}
            onClick={() => setEditing((open) => !open)}
          >
            {editing ? 'Close event maps' : 'Edit event maps'}
          </button>
        )}
        <ConfirmAction
          label="Disconnect"
          confirmLabel={`Disconnect ${name}`}
          question={
            database ? (
              <>
                Payback deletes the stored credentials and the event maps and stops reading the database. Everything
                already read stays in your reports.
              </>
            ) : social ? (
              <>{socialDisconnectWords(social)}</>
            ) : searchAds ? (
              <>
                Payback stops reading this ad account and can no longer apply approved budgets to it. Unless another
                connection uses the same Google sign-in, Payback revokes its access at Google and deletes the stored
                token. Spend already read stays in your reports.
              </>
            ) : (
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

      {searchAds && suffixOpen && <UrlSuffixPanel slug={connection.product_slug} id={suffixId} />}
      {searchAds && (
        <details class="replace-key">
          <summary>Reconnect Google</summary>
          <GoogleAdsConnect slug={connection.product_slug} reconnect />
        </details>
      )}
      {metaAds && filterOpen && (
        <CampaignFilter
          slug={connection.product_slug}
          id={filterId}
          saved={campaignPrefixes(connection.config)}
          onSaved={onChanged}
        />
      )}
      {social && <SocialReconnect connection={connection} onConnected={onChanged} />}
      {database && editing && (
        <div id={editorId}>
          <EventMapEditor connection={connection} kind={database} onSaved={onChanged} />
        </div>
      )}
      {database && (
        <details class="replace-key">
          <summary>Replace credentials</summary>
          <DatabaseForm
            slug={connection.product_slug}
            kind={database}
            replacing
            staged={connection.status === 'pending'}
            onConnected={onChanged}
          />
        </details>
      )}
      {connection.kind === 'payments' && (
        <details class="replace-key">
          <summary>Replace key</summary>
          <PaymentsForm
            slug={connection.product_slug}
            replacing
            currentStage={stage === 'converted' || stage === 'payment' ? (stage as PaymentStage) : undefined}
            onConnected={onChanged}
          />
        </details>
      )}
    </article>
  );
}
