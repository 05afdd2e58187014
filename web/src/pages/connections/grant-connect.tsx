// One grant flow for any provider (`searchco` for Google, `socialco` for Meta): the button that
// starts the grant for the kinds chosen and opens the provider's consent page in this tab; then,
// back on this product's Connections page with `?{provider}_state=...`, the article that reads
// the grant's status every second until the provider's answer is in, shows the provider's own
// choice fields (its `Choose`), and activates what was chosen. The provider supplies only its
// words and its choice fields; starting, polling, refusals and selecting are the same for all.
// The flow's heading names the kinds the provider's answer has lists for, by their grant `name`.

import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from '../../api';
import { ErrorNote, Loading } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { GrantProvider, GrantStatusBase, KindModule } from './kind-module';
import type { GrantSelected, GrantStarted } from './types';
import { kindName } from './words';

/** How often the grant's status is read while the provider has not answered yet. */
const POLL_MS = 1_000;

/** The page's query parameter carrying `provider`'s grant state. */
export function grantStateParam(provider: GrantProvider): string {
  return `${provider.name}_state`;
}

/** The button that starts the grant for `kinds` (a choice when there are several) and leaves. */
export function GrantConnect({
  provider,
  slug,
  kinds,
  reconnect,
}: {
  provider: GrantProvider;
  slug: string;
  kinds: KindModule[];
  reconnect: boolean;
}) {
  const words = provider.words;
  const offered = kinds.map((k) => k.kind);
  const [wanted, setWanted] = useState<string[]>(offered);
  const start = useAction(
    useCallback(
      (chosen: string[]) =>
        api.post<GrantStarted>(`/connect/${provider.name}/start`, {
          product_slug: slug,
          kinds: chosen,
          client: 'dashboard',
        }),
      [provider.name, slug],
    ),
  );
  const [leaving, setLeaving] = useState(false);
  const toggle = (kind: string, on: boolean) =>
    setWanted((list) => offered.filter((k) => (k === kind ? on : list.includes(k))));
  const purposes = kinds.every((k) => k.grant?.purpose);
  return (
    <div class={words.connectClass}>
      <p>{reconnect ? words.reconnectIntro(kinds[0]?.grant?.noun ?? '') : words.intro}</p>
      {purposes &&
        (kinds.length > 1 ? (
          <fieldset class="meta-kinds">
            <legend>What to connect</legend>
            {kinds.map(({ kind, grant }) => (
              <label key={kind}>
                <input
                  type="checkbox"
                  name="kinds"
                  value={kind}
                  checked={wanted.includes(kind)}
                  disabled={start.busy || leaving}
                  onChange={(event) => toggle(kind, (event.currentTarget as HTMLInputElement).checked)}
                />
                {kindName(kind)}: <span class="muted">{grant?.purpose}</span>
              </label>
            ))}
          </fieldset>
        ) : (
          <p class="muted">
            {kindName(offered[0])}: {kinds[0].grant?.purpose}.
          </p>
        ))}
      <button
        type="button"
        aria-busy={start.busy || leaving}
        disabled={start.busy || leaving || wanted.length === 0}
        onClick={async () => {
          const answer = await start.run(wanted);
          if (answer) {
            setLeaving(true);
            window.location.assign(answer.auth_url);
          }
        }}
      >
        {reconnect ? words.reconnectButton : words.button}
      </button>
      <small class="muted">{words.note}</small>
      <ErrorNote error={start.error} />
    </div>
  );
}

/** The grant's status, read once and then every second while the provider has not answered. */
function useGrantStatus(
  provider: string,
  state: string,
): { status: GrantStatusBase | null; failure: string | null } {
  const [status, setStatus] = useState<GrantStatusBase | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reads, setReads] = useState(0);

  // The next read is scheduled only once the previous one answered.
  useEffect(() => {
    let live = true;
    api
      .get<GrantStatusBase>(`/connect/${provider}/status${query({ state })}`)
      .then((answer) => {
        if (live) {
          setStatus(answer);
          setFailure(null);
        }
      })
      .catch((error: unknown) => {
        if (!live) return;
        const refused = error instanceof ApiError && error.status === 404;
        setFailure(
          refused
            ? 'This connect link is not one of this workspace’s, or it is gone. Start connecting again.'
            : error instanceof Error
              ? error.message
              : String(error),
        );
      });
    return () => {
      live = false;
    };
  }, [provider, state, reads]);
  const pending = failure === null && (status === null || status.status === 'pending');
  useEffect(() => {
    if (!pending || status === null) return;
    const timer = window.setTimeout(() => setReads((n) => n + 1), POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, status]);
  return { status, failure };
}

/** The grant being finished on the page: its status, then the provider's choice fields. */
export function GrantFlow({
  provider,
  kinds,
  slug,
  state,
  currency,
  onSelected,
  onDismiss,
}: {
  provider: GrantProvider;
  /** The kinds this provider connects (a new start offers them all). */
  kinds: KindModule[];
  slug: string;
  /** The grant's state, from the page's hash query. */
  state: string;
  currency: string;
  /** What was chosen is connected; `notice` says so, for the page. */
  onSelected: (notice: string) => void;
  /** Leaves the flow (drops the state from the address). */
  onDismiss: () => void;
}) {
  const words = provider.words;
  const { status, failure } = useGrantStatus(provider.name, state);
  const select = useAction(
    useCallback(
      (body: Record<string, unknown>) =>
        api.post<GrantSelected>(`/connect/${provider.name}/select`, { state, ...body }),
      [provider.name, state],
    ),
  );
  const wrongProduct = status !== null && status.product_slug !== slug;
  // A kind started only from its own offer (one the operator may have left off) is not restarted here.
  const restartKinds = kinds.filter((k) => !k.grant?.ownStart);
  const restart = <GrantConnect provider={provider} slug={slug} kinds={restartKinds} reconnect={false} />;
  const titleId = `${words.article}-title`;

  return (
    <article class={words.article} aria-labelledby={titleId} aria-live="polite">
      <h2 id={titleId}>{flowTitle(words.title, kinds, status)}</h2>
      {failure ? (
        <>
          <ErrorNote error={failure} />
          {restart}
        </>
      ) : status === null ? (
        <Loading what={words.reading} />
      ) : wrongProduct ? (
        <p role="alert" class="error-note">
          This connect link belongs to another product ({status.product_slug}); open that product's Connections page.
        </p>
      ) : status.status === 'pending' ? (
        <p aria-busy="true" class="muted" data-grant="pending">
          {words.waiting}
        </p>
      ) : status.status === 'error' ? (
        <>
          <p role="alert" class="error-note" data-grant="error">
            {words.failed}: {(status.error ?? 'the grant ended in an error').replace(/\.$/, '')}.
          </p>
          {restart}
        </>
      ) : status.results ? (
        <>
          <p role="status" data-grant="done">
            {words.done}
          </p>
          <button type="button" class="outline secondary small" onClick={onDismiss}>
            Close
          </button>
        </>
      ) : (
        <provider.Choose
          status={status}
          currency={currency}
          kinds={kinds}
          busy={select.busy}
          error={select.error}
          onCancel={onDismiss}
          onChoose={async (body, notice) => {
            const answer = await select.run(body);
            if (answer?.ok) onSelected(notice);
          }}
        />
      )}
    </article>
  );
}

/**
 * "Connect Google Analytics": the kinds the grant was asked for, known by the lists the
 * provider's answer holds (a kind's `choice`), by their names. Before the answer, after an
 * error (the status names no kinds then), or for a kind without a name: the provider's title.
 */
function flowTitle(providerTitle: string, kinds: KindModule[], status: GrantStatusBase | null): string {
  const options = status?.options;
  const asked = kinds.filter(({ grant }) => grant && options?.[grant.choice] !== undefined);
  const names = asked.map(({ grant }) => grant?.name);
  if (names.length === 0 || names.some((name) => !name)) return providerTitle;
  return `Connect ${names.join(' and ')}`;
}

/** One option of a provider's choice fields, as its picker describes it. */
export interface ChoiceItem {
  id: string;
  label: string;
  facts: string;
  /** Why it cannot be chosen (shown, muted, not offered), or null when it can. */
  why: string | null;
}

/**
 * One list of a provider's choice fields: a radio per option, its facts under it. `field` names
 * what is chosen (`ad-account`): the fieldset is `data-choices="ad_accounts"`, each option
 * `data-ad-account="<id>"`, its radio `ad_account_id`.
 */
export function ChoiceList({
  list,
  options,
  state: [chosen, onChoose],
  busy,
  children,
}: {
  list: { field: string; legend: string };
  options: ChoiceItem[];
  /** The chosen option's id and its setter. */
  state: [string | null, (id: string) => void];
  busy: boolean;
  /** Shown before the options (what an empty list means). */
  children?: ComponentChildren;
}) {
  const word = list.field.replace(/-/g, '_');
  return (
    <fieldset data-choices={`${word}s`}>
      <legend>{list.legend}</legend>
      {children}
      {options.map(({ id: value, label, facts, why }) => {
        const id = `choice-${list.field}-${value}`;
        return (
          <div class={`account-option${why ? ' muted' : ''}`} {...{ [`data-${list.field}`]: value }} key={value}>
            <label for={id}>
              <input
                id={id}
                type="radio"
                name={`${word}_id`}
                value={value}
                checked={chosen === value}
                disabled={why !== null || busy}
                aria-describedby={`${id}-facts`}
                onChange={() => onChoose(value)}
              />
              {label}
            </label>
            <small id={`${id}-facts`}>{facts}</small>
          </div>
        );
      })}
    </fieldset>
  );
}

/** The choice fields' buttons (connect what is chosen, or leave) and the refusal of `select`. */
export function ChoiceButtons({
  label,
  ready,
  busy,
  error,
  onCancel,
}: {
  label: string;
  /** Everything asked for is chosen. */
  ready: boolean;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
}) {
  return (
    <>
      <div class="funnel-buttons">
        <button type="submit" aria-busy={busy} disabled={busy || !ready}>
          {label}
        </button>
        <button type="button" class="outline secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={error} />
    </>
  );
}
