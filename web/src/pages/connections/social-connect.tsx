// Meta (ads and a Facebook page) through the social-network grant, as Google Ads is connected
// through the search-engine one: "Connect with Meta" starts the grant for the kinds chosen and
// opens Facebook Login in this tab; Meta sends the person back through the service's callback
// to this product's Connections page with `socialco_state` in the hash, where `MetaGrant` polls
// the grant's status every second until Meta's answer is in, then lists the ad accounts and
// pages it reaches (accounts in another currency than the product's, or not active, shown but
// not offered) and activates the ones picked. The product page's offers (Meta, and LinkedIn ads,
// which connects with a token only) and the cards' reconnect sections live here too.

import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from '../../api';
import { ErrorNote, Loading } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { AdsKeyForm, PageKeyForm } from './social-key-forms';
import type { AdAccountOption, Connection, GrantSelected, GrantStarted, PageOption, SocialGrantStatus } from './types';
import { adAccountUnavailable, campaignPrefixes, kindName, pageWords } from './words';

/** How often the grant's status is read while Meta has not answered yet. */
const POLL_MS = 1_000;

/** The kinds one Meta sign-in can connect. */
type MetaKind = 'social_ads_a' | 'social_a';
const META_KINDS: MetaKind[] = ['social_ads_a', 'social_a'];

const META_KIND_PURPOSE: Record<MetaKind, string> = {
  social_ads_a: 'spend by campaign, ad set and ad, read hourly; approved budget changes are applied to its campaigns',
  social_a: 'daily followers, reach and engagement of a page and its linked Instagram account, and its recent posts',
};

/** The button that starts the grant for `kinds` (a choice when there are two) and leaves for Meta. */
export function MetaConnect({ slug, kinds, reconnect }: { slug: string; kinds: MetaKind[]; reconnect: boolean }) {
  const [wanted, setWanted] = useState<MetaKind[]>(kinds);
  const start = useAction(
    useCallback(
      (chosen: MetaKind[]) =>
        api.post<GrantStarted>('/connect/socialco/start', { product_slug: slug, kinds: chosen, client: 'dashboard' }),
      [slug],
    ),
  );
  const [leaving, setLeaving] = useState(false);
  const toggle = (kind: MetaKind, on: boolean) =>
    setWanted((list) => META_KINDS.filter((k) => (k === kind ? on : list.includes(k))));
  return (
    <div class="connection-form meta-connect">
      <p>
        {reconnect
          ? `Sign in to Facebook again, for a token that expired or was removed, or to connect another ${kinds.includes('social_a') ? 'page' : 'ad account'}. The new sign-in replaces the stored one.`
          : 'Sign in with the Facebook account that manages your ads and pages, and allow Payback what it asks for. You then choose the ad account and the page.'}
      </p>
      {kinds.length > 1 ? (
        <fieldset class="meta-kinds">
          <legend>What to connect</legend>
          {kinds.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                name="kinds"
                value={kind}
                checked={wanted.includes(kind)}
                disabled={start.busy || leaving}
                onChange={(event) => toggle(kind, (event.currentTarget as HTMLInputElement).checked)}
              />
              {kindName(kind)}: <span class="muted">{META_KIND_PURPOSE[kind]}</span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p class="muted">
          {kindName(kinds[0])}: {META_KIND_PURPOSE[kinds[0]]}.
        </p>
      )}
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
        {reconnect ? 'Reconnect Meta' : 'Connect with Meta'}
      </button>
      <small class="muted">
        Facebook's Login dialog opens in this tab and brings you back here. The link it uses is valid for 15 minutes.
      </small>
      <ErrorNote error={start.error} />
    </div>
  );
}

/** The grant's status, read once and then every second while Meta has not answered. */
function useGrantStatus(state: string): { status: SocialGrantStatus | null; failure: string | null } {
  const [status, setStatus] = useState<SocialGrantStatus | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reads, setReads] = useState(0);

  // The next read is scheduled only once the previous one answered.
  useEffect(() => {
    let live = true;
    api
      .get<SocialGrantStatus>(`/connect/socialco/status${query({ state })}`)
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
  }, [state, reads]);
  const pending = failure === null && (status === null || status.status === 'pending');
  useEffect(() => {
    if (!pending || status === null) return;
    const timer = window.setTimeout(() => setReads((n) => n + 1), POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, status]);
  return { status, failure };
}

/** What the picker chose: the ad account and the page, each when the grant was asked for it. */
interface MetaChoice {
  account: AdAccountOption | null;
  page: PageOption | null;
}

export function MetaGrant({
  slug,
  state,
  currency,
  onSelected,
  onDismiss,
}: {
  slug: string;
  /** The grant's `socialco_state`, from the page's hash query. */
  state: string;
  /** The product's currency: ad accounts reporting in another one are not offered. */
  currency: string;
  /** The choices are connected; `what` says which, for the page's notice. */
  onSelected: (what: string) => void;
  /** Leaves the flow (drops `socialco_state` from the address). */
  onDismiss: () => void;
}) {
  const { status, failure } = useGrantStatus(state);
  const select = useAction(
    useCallback(
      ({ account, page }: MetaChoice) =>
        api.post<GrantSelected>('/connect/socialco/select', {
          state,
          ad_account_id: account?.id,
          page_id: page?.id,
        }),
      [state],
    ),
  );
  const wrongProduct = status !== null && status.product_slug !== slug;
  const restart = <MetaConnect slug={slug} kinds={META_KINDS} reconnect={false} />;

  return (
    <article class="meta-grant" aria-labelledby="meta-grant-title" aria-live="polite">
      <h2 id="meta-grant-title">Connect Meta</h2>
      {failure ? (
        <>
          <ErrorNote error={failure} />
          {restart}
        </>
      ) : status === null ? (
        <Loading what="Reading what Meta answered" />
      ) : wrongProduct ? (
        <p role="alert" class="error-note">
          This connect link belongs to another product ({status.product_slug}); open that product's Connections page.
        </p>
      ) : status.status === 'pending' ? (
        <p aria-busy="true" class="muted" data-grant="pending">
          Waiting for Meta: finish signing in on Facebook's page. This page checks every second.
        </p>
      ) : status.status === 'error' ? (
        <>
          <p role="alert" class="error-note" data-grant="error">
            Meta was not connected: {(status.error ?? 'the grant ended in an error').replace(/\.$/, '')}.
          </p>
          {restart}
        </>
      ) : status.results ? (
        <>
          <p role="status" data-grant="done">
            This grant's choices were already made; its connections are listed on this page. To connect another account
            or page, start again.
          </p>
          <button type="button" class="outline secondary small" onClick={onDismiss}>
            Close
          </button>
        </>
      ) : (
        <MetaPicker
          accounts={status.options?.ad_accounts ?? null}
          pages={status.options?.pages ?? null}
          currency={currency}
          busy={select.busy}
          error={select.error}
          onCancel={onDismiss}
          onChoose={async (choice) => {
            const answer = await select.run(choice);
            if (answer?.ok) onSelected(choiceWords(choice));
          }}
        />
      )}
    </article>
  );
}

/** "Meta ads account Shop (123) and Facebook page Shop page". */
function choiceWords({ account, page }: MetaChoice): string {
  const parts = [
    account ? `${kindName('social_ads_a')} account ${account.name || account.id} (${account.id})` : null,
    page ? `${kindName('social_a')} ${page.name || page.id}` : null,
  ];
  return parts.filter(Boolean).join(' and ');
}

/**
 * The ad accounts and pages the grant reaches; each list only when the grant was asked for it
 * (null otherwise). One choosable option is picked already.
 */
function MetaPicker({
  accounts,
  pages,
  currency,
  busy,
  error,
  onChoose,
  onCancel,
}: {
  accounts: AdAccountOption[] | null;
  pages: PageOption[] | null;
  currency: string;
  busy: boolean;
  error: string | null;
  onChoose: (choice: MetaChoice) => Promise<void>;
  onCancel: () => void;
}) {
  const choosable = accounts?.filter((a) => adAccountUnavailable(a, currency) === null) ?? [];
  const [accountId, setAccountId] = useState<string | null>(choosable.length === 1 ? choosable[0].id : null);
  const [pageId, setPageId] = useState<string | null>(pages?.length === 1 ? pages[0].id : null);
  const account = accounts?.find((a) => a.id === accountId) ?? null;
  const page = pages?.find((p) => p.id === pageId) ?? null;
  // The server activates everything the grant was asked for at once, so each asked list needs a choice.
  const ready = (accounts === null || account !== null) && (pages === null || page !== null);
  const stuck =
    (accounts !== null && choosable.length === 0) || (pages !== null && pages.length === 0);

  return (
    <form
      class="connection-form account-picker"
      onSubmit={async (event) => {
        event.preventDefault();
        if (ready) await onChoose({ account, page });
      }}
    >
      {accounts !== null && (
        <fieldset data-choices="ad_accounts">
          <legend>Choose the ad account whose spend feeds this product</legend>
          {accounts.length === 0 && <p class="muted">This Facebook account reaches no ad account.</p>}
          {accounts.map((option) => {
            const why = adAccountUnavailable(option, currency);
            const id = `meta-account-${option.id}`;
            return (
              <div class={`account-option${why ? ' muted' : ''}`} data-ad-account={option.id} key={option.id}>
                <label for={id}>
                  <input
                    id={id}
                    type="radio"
                    name="ad_account_id"
                    value={option.id}
                    checked={accountId === option.id}
                    disabled={why !== null || busy}
                    aria-describedby={`${id}-facts`}
                    onChange={() => setAccountId(option.id)}
                  />
                  {option.name || 'Unnamed account'} ({option.id})
                </label>
                <small id={`${id}-facts`}>
                  {[`currency ${option.currency}`, option.status.replace(/_/g, ' '), why].filter(Boolean).join(' · ')}
                </small>
              </div>
            );
          })}
        </fieldset>
      )}
      {pages !== null && (
        <fieldset data-choices="pages">
          <legend>Choose the Facebook page to follow</legend>
          {pages.length === 0 && <p class="muted">This Facebook account manages no page.</p>}
          {pages.map((option) => {
            const id = `meta-page-${option.id}`;
            return (
              <div class="account-option" data-page={option.id} key={option.id}>
                <label for={id}>
                  <input
                    id={id}
                    type="radio"
                    name="page_id"
                    value={option.id}
                    checked={pageId === option.id}
                    disabled={busy}
                    aria-describedby={`${id}-facts`}
                    onChange={() => setPageId(option.id)}
                  />
                  {option.name || 'Unnamed page'}
                </label>
                <small id={`${id}-facts`}>{pageWords(option)}</small>
              </div>
            );
          })}
        </fieldset>
      )}
      {stuck && (
        <p role="alert" class="error-note">
          Nothing can be connected from this sign-in: every list above needs one usable choice (ad accounts must be
          active and count in {currency}). Start again and choose only what this Facebook account can give, or sign in
          with another one.
        </p>
      )}
      <div class="funnel-buttons">
        <button type="submit" aria-busy={busy} disabled={busy || !ready}>
          {accounts !== null && pages !== null
            ? 'Connect these'
            : accounts !== null
              ? 'Connect this account'
              : 'Connect this page'}
        </button>
        <button type="button" class="outline secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}

/**
 * The product page's offers for the social kinds it does not have yet: Meta (sign in, or paste
 * a token) while no Meta grant is open on the page, and LinkedIn ads (a token).
 */
export function SocialConnectOffers({
  slug,
  currency,
  connected,
  grantOpen,
  onConnected,
}: {
  slug: string;
  currency: string;
  /** The kinds this product already has. */
  connected: string[];
  /** A Meta grant is being finished on the page: its own article stands in for the offer. */
  grantOpen: boolean;
  onConnected: () => void;
}) {
  const missingMeta = META_KINDS.filter((kind) => !connected.includes(kind));
  return (
    <>
      {missingMeta.length > 0 && !grantOpen && (
        <article aria-labelledby="connect-meta-title" data-offer="meta">
          <h2 id="connect-meta-title">Connect Meta</h2>
          <MetaConnect key={missingMeta.join()} slug={slug} kinds={missingMeta} reconnect={false} />
          <details class="replace-key">
            <summary>Paste an access token instead</summary>
            {missingMeta.includes('social_ads_a') && (
              <AdsKeyForm
                slug={slug}
                kind="social_ads_a"
                currency={currency}
                replacing={false}
                onConnected={onConnected}
              />
            )}
            {missingMeta.includes('social_a') && (
              <PageKeyForm slug={slug} replacing={false} onConnected={onConnected} />
            )}
          </details>
        </article>
      )}
      {!connected.includes('social_ads_b') && (
        <article aria-labelledby="connect-linkedin-title" data-offer="linkedin">
          <h2 id="connect-linkedin-title">Connect LinkedIn ads</h2>
          <p>
            Spend by campaign and ad from a LinkedIn Campaign Manager account, read hourly. Payback only reads it: approved
            budget changes are never applied on LinkedIn.
          </p>
          <AdsKeyForm slug={slug} kind="social_ads_b" currency={currency} replacing={false} onConnected={onConnected} />
        </article>
      )}
    </>
  );
}

/**
 * A social card's way to replace what it reads with: Meta's sign-in again (or a pasted token),
 * or a new LinkedIn token. The connected account or page is offered again by default.
 */
export function SocialReconnect({ connection, onConnected }: { connection: Connection; onConnected: () => void }) {
  const config = connection.config ?? {};
  const text = (name: string) => (typeof config[name] === 'string' ? (config[name] as string) : null);
  const currency = text('currency');
  const slug = connection.product_slug;
  const current = { adAccountId: text('ad_account_id'), prefixes: campaignPrefixes(connection.config) };
  switch (connection.kind) {
    case 'social_ads_b':
      return (
        <details class="replace-key">
          <summary>Replace token</summary>
          <AdsKeyForm
            slug={slug}
            kind="social_ads_b"
            currency={currency}
            replacing
            current={current}
            onConnected={onConnected}
          />
        </details>
      );
    case 'social_ads_a':
    case 'social_a':
      return (
        <details class="replace-key">
          <summary>Reconnect Meta</summary>
          <MetaConnect slug={slug} kinds={[connection.kind]} reconnect />
          <h3 class="or-token">Or paste an access token</h3>
          {connection.kind === 'social_ads_a' ? (
            <AdsKeyForm
              slug={slug}
              kind="social_ads_a"
              currency={currency}
              replacing
              current={current}
              onConnected={onConnected}
            />
          ) : (
            <PageKeyForm slug={slug} replacing currentPageId={text('page_id')} onConnected={onConnected} />
          )}
        </details>
      );
    default:
      return null;
  }
}
