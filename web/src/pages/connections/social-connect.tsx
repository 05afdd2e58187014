// The social-network grant (`socialco`, Meta): its words, its choice fields, and what the Meta
// kinds share on the page (their offer: sign in, or paste a token; their cards' reconnect
// section). Started and followed by the shared grant flow (`grant-connect.tsx`); here Meta's
// answer is shown as the ad accounts and pages it reaches (accounts in another currency than the
// product's, or not active, shown but not offered), and the ones picked are activated.

import type { ComponentChildren } from 'preact';
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { ChoiceButtons, ChoiceList, GrantConnect } from './grant-connect';
import type { ChoiceItem } from './grant-connect';
import type { ChooseProps, GrantProvider } from './kind-module';
import type { KindModule, Offer } from './kind-module';
import type { AdAccountOption, Connection, PageOption } from './types';
import { adAccountUnavailable, kindName, pageWords } from './words';

/** What the picker chose: the ad account and the page, each when the grant was asked for it. */
interface MetaChoice {
  account: AdAccountOption | null;
  page: PageOption | null;
}

/** "Meta ads account Shop (123) and Facebook page Shop page": each named by its kind. */
function choiceWords({ account, page }: MetaChoice, kinds: KindModule[]): string {
  const named = (choice: string) => kindName(kinds.find((k) => k.grant?.choice === choice)?.kind ?? choice);
  const parts = [
    account ? `${named('ad_accounts')} account ${account.name || account.id} (${account.id})` : null,
    page ? `${named('pages')} ${page.name || page.id}` : null,
  ];
  return parts.filter(Boolean).join(' and ');
}

/** An ad account as a choice: its name and id, currency and status. */
function accountChoice(option: AdAccountOption, currency: string): ChoiceItem {
  const why = adAccountUnavailable(option, currency);
  return {
    id: option.id,
    label: `${option.name || 'Unnamed account'} (${option.id})`,
    facts: [`currency ${option.currency}`, option.status.replace(/_/g, ' '), why].filter(Boolean).join(' · '),
    why,
  };
}

/** A page as a choice: its name, id and linked Instagram account. */
function pageChoice(option: PageOption): ChoiceItem {
  return { id: option.id, label: option.name || 'Unnamed page', facts: pageWords(option), why: null };
}

/** Meta's answer as choice fields: the lists the grant was asked for. */
function MetaChoose({ status, currency, kinds, busy, error, onChoose, onCancel }: ChooseProps) {
  const options = status.options ?? {};
  return (
    <MetaPicker
      accounts={(options.ad_accounts as AdAccountOption[] | undefined) ?? null}
      pages={(options.pages as PageOption[] | undefined) ?? null}
      currency={currency}
      busy={busy}
      error={error}
      onCancel={onCancel}
      onChoose={(choice) =>
        onChoose(
          { ad_account_id: choice.account?.id, page_id: choice.page?.id },
          `${choiceWords(choice, kinds)} connected. The first sync is due now and reads the last 30 days.`,
        )
      }
    />
  );
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
        <ChoiceList
          list={{ field: 'ad-account', legend: 'Choose the ad account whose spend feeds this product' }}
          options={accounts.map((option) => accountChoice(option, currency))}
          state={[accountId, setAccountId]}
          busy={busy}
        >
          {accounts.length === 0 && <p class="muted">This Facebook account reaches no ad account.</p>}
        </ChoiceList>
      )}
      {pages !== null && (
        <ChoiceList
          list={{ field: 'page', legend: 'Choose the Facebook page to follow' }}
          options={pages.map(pageChoice)}
          state={[pageId, setPageId]}
          busy={busy}
        >
          {pages.length === 0 && <p class="muted">This Facebook account manages no page.</p>}
        </ChoiceList>
      )}
      {stuck && (
        <p role="alert" class="error-note">
          Nothing can be connected from this sign-in: every list above needs one usable choice (ad accounts must be
          active and count in {currency}). Start again and choose only what this Facebook account can give, or sign in
          with another one.
        </p>
      )}
      <ChoiceButtons
        label={
          accounts !== null && pages !== null
            ? 'Connect these'
            : accounts !== null
              ? 'Connect this account'
              : 'Connect this page'
        }
        ready={ready}
        busy={busy}
        error={error}
        onCancel={onCancel}
      />
    </form>
  );
}

/** Meta, through the social-network grant. */
export const SOCIAL_GRANT: GrantProvider = {
  name: 'socialco',
  Choose: MetaChoose,
  words: {
    connectClass: 'connection-form meta-connect',
    intro:
      'Sign in with the Facebook account that manages your ads and pages, and allow Payback what it asks for. You then choose the ad account and the page.',
    reconnectIntro: (noun) =>
      `Sign in to Facebook again, for a token that expired or was removed, or to connect another ${noun}. The new sign-in replaces the stored one.`,
    button: 'Connect with Meta',
    reconnectButton: 'Reconnect Meta',
    note: "Facebook's Login dialog opens in this tab and brings you back here. The link it uses is valid for 15 minutes.",
    article: 'meta-grant',
    title: 'Connect Meta',
    reading: 'Reading what Meta answered',
    waiting: "Waiting for Meta: finish signing in on Facebook's page. This page checks every second.",
    failed: 'Meta was not connected',
    done: "This grant's choices were already made; its connections are listed on this page. To connect another account or page, start again.",
  },
};

/** The Meta kinds' one offer: sign in for the kinds missing, or paste a token for each. */
export const META_OFFER: Offer = {
  render: ({ slug, currency, missing, onConnected }) => (
    <article aria-labelledby="connect-meta-title" data-offer="meta">
      <h2 id="connect-meta-title">Connect Meta</h2>
      <GrantConnect
        key={missing.map((k) => k.kind).join()}
        provider={SOCIAL_GRANT}
        slug={slug}
        kinds={missing}
        reconnect={false}
      />
      <details class="replace-key">
        <summary>Paste an access token instead</summary>
        {missing.map((k) => (
          <Fragment key={k.kind}>{k.tokenForm?.({ slug, currency, onConnected })}</Fragment>
        ))}
      </details>
    </article>
  ),
};

/** A Meta card's way to replace what it reads with: Meta's sign-in again, or a pasted token. */
export function MetaReconnect({
  module,
  connection,
  children,
}: {
  module: KindModule;
  connection: Connection;
  /** The kind's token form, replacing. */
  children: ComponentChildren;
}) {
  return (
    <details class="replace-key">
      <summary>Reconnect Meta</summary>
      <GrantConnect provider={SOCIAL_GRANT} slug={connection.product_slug} kinds={[module]} reconnect />
      <h3 class="or-token">Or paste an access token</h3>
      {children}
    </details>
  );
}
