// Connecting the social networks with an access token instead of a sign-in: LinkedIn ads
// (`social_ads_b`, which has no grant here), and Meta ads or a Facebook page for people who
// already hold a Meta token. The token is proven with one live read before anything is stored.
// Left without an account (or page) id, the server lists what the token reaches and connects
// the only usable one; when there are several it connects nothing and this form shows the list
// to choose from, keeping the typed token, and sends again with the chosen id. A refusal names
// the field at fault (`access_token: ...`) and is shown under that field.

import type { ComponentChildren } from 'preact';
import { useCallback, useId, useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { AdAccountOption, Connection, PageOption, SocialConnected } from './types';
import { adAccountUnavailable, campaignPrefixes, configText, kindName, kindPath, pageWords } from './words';

/** The body fields a refusal can name; anything else is shown under the whole form. */
type FieldName = 'access_token' | 'ad_account_id' | 'page_id' | 'campaign_name_prefixes';
const FIELDS: FieldName[] = ['access_token', 'ad_account_id', 'page_id', 'campaign_name_prefixes'];

/** Splits the server's `field: reason` into the field it names (one of this form's) and the text. */
function fieldOf(error: string | null, fields: FieldName[]): FieldName | null {
  if (!error) return null;
  const named = FIELDS.find((field) => error.startsWith(`${field}: `));
  return named && fields.includes(named) ? named : null;
}

/** The refusal under the field it names, tied to the input by `aria-describedby`. */
function FieldError({ id, error }: { id: string; error: string | null }) {
  if (!error) return null;
  return (
    <p role="alert" class="error-note field-error" id={id}>
      {error}
    </p>
  );
}

/** A hidden-while-typed token input with a show toggle; stays filled across a resubmit. */
function TokenInput({
  id,
  label,
  hint,
  error,
  placeholder,
}: {
  id: string;
  label: string;
  hint: ComponentChildren;
  error: string | null;
  placeholder: string;
}) {
  const [shown, setShown] = useState(false);
  return (
    <>
      <label for={id}>{label}</label>
      <div role="group" class="key-input">
        <input
          id={id}
          name="access_token"
          // Preact types `type` per input kind; the toggle switches one live input between two.
          type={(shown ? 'text' : 'password') as 'password'}
          required
          maxLength={4000}
          // Not "off": browsers ignore that on password inputs and fill in the person's Payback
          // password; a "new" password is never filled from the saved ones.
          autocomplete="new-password"
          spellcheck={false}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        <button
          type="button"
          class="outline secondary"
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? 'Hide token' : 'Show token'}
        </button>
      </div>
      <small id={`${id}-hint`}>{hint}</small>
      <FieldError id={`${id}-error`} error={error} />
    </>
  );
}

/** "1 page", "3 pages". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The token read from the submitted form, trimmed. */
function tokenOf(event: Event): string {
  event.preventDefault();
  const data = new FormData(event.currentTarget as HTMLFormElement);
  return String(data.get('access_token') ?? '').trim();
}

/** Prefixes typed one per line: trimmed, empty lines and repeats dropped. */
export function prefixLines(text: string): string[] {
  const seen: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const prefix = line.trim();
    if (prefix && !seen.includes(prefix)) seen.push(prefix);
  }
  return seen;
}

/** An ad network's words for its token form, and whether it takes a campaign filter. */
export interface AdsKeyWords {
  token: string;
  placeholder: string;
  hint: ComponentChildren;
  account: string;
  accountHint: string;
  /** Whether the connection reads only campaigns named with given prefixes (Meta ads). */
  campaignFilter: boolean;
}

/**
 * An ad network's account (Meta ads, LinkedIn ads) with an access token, in the words its kind's
 * module gives. `currency` is the product's: listed accounts in another currency (or not
 * active) are shown, not offered.
 */
export function AdsKeyForm({
  slug,
  kind,
  words,
  currency,
  replacing,
  current,
  onConnected,
}: {
  slug: string;
  kind: string;
  words: AdsKeyWords;
  currency: string | null;
  /** True when the product already has this connection: the form replaces its token. */
  replacing: boolean;
  /** The connected account and (Meta) campaign filter, kept unless changed here. */
  current?: { adAccountId: string | null; prefixes: string[] };
  onConnected: () => void;
}) {
  const id = useId();
  const meta = words.campaignFilter;
  const [accountId, setAccountId] = useState(current?.adAccountId ?? '');
  const [accounts, setAccounts] = useState<AdAccountOption[] | null>(null);
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: { access_token: string; ad_account_id?: string; campaign_name_prefixes?: string[] }) =>
        api.post<SocialConnected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath(kind)}`, body),
      [slug, kind],
    ),
  );
  const field = fieldOf(connect.error, ['access_token', 'ad_account_id', 'campaign_name_prefixes']);
  const errorAt = (name: FieldName) => (field === name ? connect.error : null);

  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const token = tokenOf(event);
    const prefixes = meta ? prefixLines(String(new FormData(form).get('campaign_name_prefixes') ?? '')) : undefined;
    setSaved(false);
    const answer = await connect.run({
      access_token: token,
      ad_account_id: accountId.trim() || undefined,
      campaign_name_prefixes: prefixes,
    });
    if (!answer) return;
    if (answer.connection_id === null) {
      // Nothing was stored: a choice is needed. The token stays typed for the second submit.
      setAccounts(answer.accounts ?? []);
      return;
    }
    form.reset();
    setAccounts(null);
    setAccountId(current?.adAccountId ?? '');
    setSaved(true);
    onConnected();
  };

  const choosable = accounts?.filter((account) => adAccountUnavailable(account, currency) === null) ?? [];
  const action = accounts?.length
    ? 'Connect the chosen account'
    : replacing
      ? 'Replace token'
      : `Connect ${kindName(kind)}`;

  return (
    <form onSubmit={submit} class="connection-form social-key-form" data-key-form={kind}>
      <TokenInput
        id={`${id}-token`}
        label={words.token}
        hint={words.hint}
        error={errorAt('access_token')}
        placeholder={words.placeholder}
      />
      <label for={`${id}-account`}>{words.account}</label>
      <input
        id={`${id}-account`}
        name="ad_account_id"
        inputMode="numeric"
        maxLength={100}
        autocomplete="off"
        spellcheck={false}
        value={accountId}
        onInput={(event) => setAccountId((event.currentTarget as HTMLInputElement).value)}
        aria-invalid={errorAt('ad_account_id') ? true : undefined}
        aria-describedby={`${id}-account-hint${errorAt('ad_account_id') ? ` ${id}-account-error` : ''}`}
      />
      <small id={`${id}-account-hint`}>{words.accountHint}</small>
      <FieldError id={`${id}-account-error`} error={errorAt('ad_account_id')} />
      {meta && (
        <>
          <label for={`${id}-prefixes`}>Campaign name prefixes (optional)</label>
          <textarea
            id={`${id}-prefixes`}
            name="campaign_name_prefixes"
            rows={2}
            spellcheck={false}
            defaultValue={current?.prefixes.join('\n') ?? ''}
            aria-invalid={errorAt('campaign_name_prefixes') ? true : undefined}
            aria-describedby={`${id}-prefixes-hint${errorAt('campaign_name_prefixes') ? ` ${id}-prefixes-error` : ''}`}
          />
          <small id={`${id}-prefixes-hint`}>
            One per line. Only campaigns whose name starts with one of them (ignoring case) are read, for an ad account
            shared with other products; left empty, every campaign is.
          </small>
          <FieldError id={`${id}-prefixes-error`} error={errorAt('campaign_name_prefixes')} />
        </>
      )}
      {accounts && (
        <AccountChoices
          name={`${id}-choice`}
          accounts={accounts}
          currency={currency}
          chosen={accountId.trim()}
          busy={connect.busy}
          onChoose={setAccountId}
        />
      )}
      {accounts && accounts.length > 0 && choosable.length === 0 && (
        <p role="alert" class="error-note">
          None of these accounts can feed this product: only active accounts{currency ? ` in ${currency}` : ''} can.
        </p>
      )}
      <button
        type="submit"
        aria-busy={connect.busy}
        disabled={connect.busy || (accounts !== null && accounts.length > 0 && !accountId.trim())}
      >
        {action}
      </button>
      {field === null && <ErrorNote error={connect.error} />}
      {saved && (
        <p role="status" class="trend-up">
          {replacing
            ? 'Token replaced. The next sync uses it.'
            : `${kindName(kind)} connected. The first sync reads the last 30 days.`}
        </p>
      )}
    </form>
  );
}

/** A connected ad account's new token: its account and campaign filter kept unless changed. */
export function ReplaceAdsKey({
  connection,
  words,
  onConnected,
}: {
  connection: Connection;
  words: AdsKeyWords;
  onConnected: () => void;
}) {
  return (
    <AdsKeyForm
      slug={connection.product_slug}
      kind={connection.kind}
      words={words}
      currency={configText(connection, 'currency')}
      replacing
      current={{ adAccountId: configText(connection, 'ad_account_id'), prefixes: campaignPrefixes(connection.config) }}
      onConnected={onConnected}
    />
  );
}

/** The ad accounts a token reaches, as radios; unusable ones shown with why, not offered. */
function AccountChoices({
  name,
  accounts,
  currency,
  chosen,
  busy,
  onChoose,
}: {
  name: string;
  accounts: AdAccountOption[];
  currency: string | null;
  chosen: string;
  busy: boolean;
  onChoose: (id: string) => void;
}) {
  if (accounts.length === 0) {
    return (
      <p role="alert" class="error-note">
        Nothing was connected: this token reaches no ad account. Use a token of a person or system user with access to
        the account.
      </p>
    );
  }
  return (
    <fieldset class="account-picker" data-choices="accounts">
      <legend>
        Nothing was connected yet: this token reaches {plural(accounts.length, 'ad account')}. Choose the one whose
        spend feeds this product, then connect again.
      </legend>
      {accounts.map((account) => {
        const why = adAccountUnavailable(account, currency);
        const optionId = `${name}-${account.id}`;
        return (
          <div class={`account-option${why ? ' muted' : ''}`} data-ad-account={account.id} key={account.id}>
            <label for={optionId}>
              <input
                id={optionId}
                type="radio"
                name={name}
                value={account.id}
                checked={chosen === account.id}
                disabled={why !== null || busy}
                aria-describedby={`${optionId}-facts`}
                onChange={() => onChoose(account.id)}
              />
              {account.name || 'Unnamed account'} ({account.id})
            </label>
            <small id={`${optionId}-facts`}>
              {[`currency ${account.currency}`, account.status.replace(/_/g, ' '), why].filter(Boolean).join(' · ')}
            </small>
          </div>
        );
      })}
    </fieldset>
  );
}

/** A Facebook page (`social_a`) with a page token or a user token that manages it. */
export function PageKeyForm({
  slug,
  kind,
  replacing,
  currentPageId,
  onConnected,
}: {
  slug: string;
  /** The page kind's wire word. */
  kind: string;
  replacing: boolean;
  currentPageId?: string | null;
  onConnected: () => void;
}) {
  const id = useId();
  const [pageId, setPageId] = useState(currentPageId ?? '');
  const [pages, setPages] = useState<PageOption[] | null>(null);
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: { access_token: string; page_id?: string }) =>
        api.post<SocialConnected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath(kind)}`, body),
      [slug, kind],
    ),
  );
  const field = fieldOf(connect.error, ['access_token', 'page_id']);
  const errorAt = (name: FieldName) => (field === name ? connect.error : null);

  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const token = tokenOf(event);
    setSaved(false);
    const answer = await connect.run({ access_token: token, page_id: pageId.trim() || undefined });
    if (!answer) return;
    if (answer.connection_id === null) {
      setPages(answer.pages ?? []);
      return;
    }
    form.reset();
    setPages(null);
    setPageId(currentPageId ?? '');
    setSaved(true);
    onConnected();
  };

  return (
    <form onSubmit={submit} class="connection-form social-key-form" data-key-form={kind}>
      <TokenInput
        id={`${id}-token`}
        label="Meta page access token"
        hint={
          <>
            A page token, or a user token of someone who manages the page, with <code>pages_read_engagement</code> and{' '}
            <code>read_insights</code> (<code>instagram_basic</code> and <code>instagram_manage_insights</code> for the
            linked Instagram account). Payback stores it encrypted and never shows it again.
          </>
        }
        error={errorAt('access_token')}
        placeholder="EAAG…"
      />
      <label for={`${id}-page`}>Page id (optional)</label>
      <input
        id={`${id}-page`}
        name="page_id"
        inputMode="numeric"
        maxLength={100}
        autocomplete="off"
        spellcheck={false}
        value={pageId}
        onInput={(event) => setPageId((event.currentTarget as HTMLInputElement).value)}
        aria-invalid={errorAt('page_id') ? true : undefined}
        aria-describedby={`${id}-page-hint${errorAt('page_id') ? ` ${id}-page-error` : ''}`}
      />
      <small id={`${id}-page-hint`}>
        From the page's About section. Left empty, Payback lists the pages the token reaches and connects the only one.
      </small>
      <FieldError id={`${id}-page-error`} error={errorAt('page_id')} />
      {pages &&
        (pages.length === 0 ? (
          <p role="alert" class="error-note">
            Nothing was connected: this token reaches no page.
          </p>
        ) : (
          <fieldset class="account-picker" data-choices="pages">
            <legend>
              Nothing was connected yet: this token reaches {plural(pages.length, 'page')}. Choose one, then connect
              again.
            </legend>
            {pages.map((page) => {
              const optionId = `${id}-page-${page.id}`;
              return (
                <div class="account-option" data-page={page.id} key={page.id}>
                  <label for={optionId}>
                    <input
                      id={optionId}
                      type="radio"
                      name={`${id}-page-choice`}
                      value={page.id}
                      checked={pageId.trim() === page.id}
                      disabled={connect.busy}
                      aria-describedby={`${optionId}-facts`}
                      onChange={() => setPageId(page.id)}
                    />
                    {page.name || 'Unnamed page'}
                  </label>
                  <small id={`${optionId}-facts`}>{pageWords(page)}</small>
                </div>
              );
            })}
          </fieldset>
        ))}
      <button
        type="submit"
        aria-busy={connect.busy}
        disabled={connect.busy || (pages !== null && pages.length > 0 && !pageId.trim())}
      >
        {pages?.length ? 'Connect the chosen page' : replacing ? 'Replace token' : 'Connect Facebook page'}
      </button>
      {field === null && <ErrorNote error={connect.error} />}
      {saved && (
        <p role="status" class="trend-up">
          {replacing ? 'Token replaced. The next sync uses it.' : 'Facebook page connected. Its first sync is due now.'}
        </p>
      )}
    </form>
  );
}
