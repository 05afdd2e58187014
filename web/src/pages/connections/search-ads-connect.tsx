// The search-engine grant (`searchco`, Google): its words and its choice fields. Started and
// followed by the shared grant flow (`grant-connect.tsx`); here Google's answer is shown as the
// ad accounts it reaches (managers shown for orientation, never chosen; accounts in another
// currency than the product's shown but not offered), beside the list of each other kind the
// grant was asked for (its module's `grant.pick`), and the ones picked are activated.

import { useState } from 'preact/hooks';
import { ChoiceButtons, ChoiceList } from './grant-connect';
import type { ChoiceItem } from './grant-connect';
import type { ChooseProps, GrantPick, GrantProvider } from './kind-module';
import type { AdsCustomerOption } from './types';
import { customerIdWords } from './words';

/** Why an account cannot be chosen, or null when it can. */
function unavailable(customer: AdsCustomerOption, currency: string): string | null {
  if (customer.manager) return 'manager account: it holds accounts, not campaigns; choose one of the accounts it manages';
  if (customer.currency_code && customer.currency_code.toUpperCase() !== currency.toUpperCase()) {
    return `reports in ${customer.currency_code} but this product counts in ${currency}; spend is never mixed across currencies`;
  }
  return null;
}

/** `ENABLED` -> "enabled"; nothing for a status Google did not report. */
function statusWords(status: string | null): string | null {
  return status ? status.toLowerCase().replace(/_/g, ' ') : null;
}

/** An account as a choice: its name and id, its currency, status and manager. */
function customerChoice(customer: AdsCustomerOption, currency: string): ChoiceItem {
  const why = unavailable(customer, currency);
  const facts = [
    customer.currency_code ? `currency ${customer.currency_code}` : 'currency not reported',
    statusWords(customer.status),
    customer.login_customer_id !== customer.customer_id
      ? `managed by ${customerIdWords(customer.login_customer_id)}`
      : null,
    why,
  ];
  return {
    id: customer.customer_id,
    label: `${customer.descriptive_name || 'Unnamed account'} (${customerIdWords(customer.customer_id)})`,
    facts: facts.filter(Boolean).join(' · '),
    why,
  };
}

/** The other kinds' lists Google's answer holds (each kind's `pick`, when its options are there). */
function kindPicks(status: ChooseProps['status'], kinds: ChooseProps['kinds']): { pick: GrantPick; items: ChoiceItem[] }[] {
  return kinds.flatMap(({ grant }) => {
    const options = grant?.pick ? status.options?.[grant.choice] : undefined;
    return grant?.pick && options !== undefined ? [{ pick: grant.pick, items: grant.pick.items(options) }] : [];
  });
}

/**
 * Google's answer as choice fields: the ad accounts it reaches (`options.ads_customers`) when the
 * grant was asked for them, and each other kind's own list; one of each to choose.
 */
function AccountPicker({ status, currency, kinds, busy, error, onChoose, onCancel }: ChooseProps) {
  const picks = kindPicks(status, kinds);
  const [pickedIds, setPickedIds] = useState<Record<string, string | null>>(() =>
    Object.fromEntries(
      picks.map(({ pick, items }) => {
        const open = items.filter((item) => item.why === null);
        return [pick.field, open.length === 1 ? open[0].id : null];
      }),
    ),
  );
  const asksAds = picks.length === 0 || status.options?.ads_customers !== undefined;
  const customers = (status.options?.ads_customers as AdsCustomerOption[] | undefined) ?? [];
  const choosable = customers.filter((c) => unavailable(c, currency) === null);
  const [chosen, setChosen] = useState<string | null>(choosable.length === 1 ? choosable[0].customer_id : null);
  if (picks.length > 0) {
    return (
      <KindPicks
        picks={picks}
        ads={asksAds ? { customers, choosable, chosen: [chosen, setChosen] } : null}
        picked={[pickedIds, (field, id) => setPickedIds((ids) => ({ ...ids, [field]: id }))]}
        currency={currency}
        busy={busy}
        error={error}
        onChoose={onChoose}
        onCancel={onCancel}
      />
    );
  }
  if (customers.length === 0) {
    return (
      <>
        <p role="alert" class="error-note">
          Google granted access, but this Google account reaches no Google Ads account. Sign in with the account that
          manages your ads.
        </p>
        <button type="button" class="outline secondary small" onClick={onCancel}>
          Close
        </button>
      </>
    );
  }
  const picked = customers.find((c) => c.customer_id === chosen);
  return (
    <form
      class="connection-form account-picker"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!picked) return;
        const name = picked.descriptive_name || customerIdWords(picked.customer_id);
        await onChoose(
          { ads_customer_id: picked.customer_id },
          `Google Ads account ${name} is connected. Its first sync reads the last 30 days of spend within the hour.`,
        );
      }}
    >
      <ChoiceList
        list={{ field: 'customer', legend: 'Choose the ad account whose spend feeds this product' }}
        options={customers.map((customer) => customerChoice(customer, currency))}
        state={[chosen, setChosen]}
        busy={busy}
      />
      {choosable.length === 0 && (
        <p role="alert" class="error-note">
          None of these accounts can feed this product: managers hold no campaigns, and accounts in another currency
          than {currency} are never mixed in.
        </p>
      )}
      <ChoiceButtons label="Connect this account" ready={picked !== undefined} busy={busy} error={error} onCancel={onCancel} />
    </form>
  );
}

/** The ad accounts beside the other kinds' lists: what Google reaches and the account chosen. */
interface AdsPart {
  customers: AdsCustomerOption[];
  choosable: AdsCustomerOption[];
  chosen: [string | null, (id: string) => void];
}

/** The choice fields of a grant asked for kinds with their own lists (and maybe the ad accounts). */
function KindPicks({
  picks,
  ads,
  picked: [ids, setId],
  currency,
  busy,
  error,
  onChoose,
  onCancel,
}: {
  picks: { pick: GrantPick; items: ChoiceItem[] }[];
  ads: AdsPart | null;
  picked: [Record<string, string | null>, (field: string, id: string) => void];
  currency: string;
  busy: boolean;
  error: string | null;
  onChoose: ChooseProps['onChoose'];
  onCancel: () => void;
}) {
  const account = ads?.customers.find((c) => c.customer_id === ads.chosen[0]);
  const ready = (ads === null || account !== undefined) && picks.every(({ pick }) => ids[pick.field]);
  return (
    <form
      class="connection-form account-picker"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!ready) return;
        const body: Record<string, unknown> = {};
        const named: string[] = [];
        if (account) {
          body.ads_customer_id = account.customer_id;
          named.push(`Google Ads account ${account.descriptive_name || customerIdWords(account.customer_id)}`);
        }
        for (const { pick } of picks) {
          const id = ids[pick.field];
          if (!id) continue;
          body[pick.field] = id;
          named.push(pick.chosenWords(id));
        }
        await onChoose(body, `${named.join(' and ')} connected. The first sync is due now and reads the last 30 days.`);
      }}
    >
      {ads &&
        (ads.customers.length === 0 ? (
          <p role="alert" class="error-note">
            Google granted access, but this Google account reaches no Google Ads account. Sign in with the account that
            manages your ads.
          </p>
        ) : (
          <ChoiceList
            list={{ field: 'customer', legend: 'Choose the ad account whose spend feeds this product' }}
            options={ads.customers.map((customer) => customerChoice(customer, currency))}
            state={ads.chosen}
            busy={busy}
          />
        ))}
      {picks.map(({ pick, items }) => (
        <ChoiceList
          key={pick.field}
          list={{ field: pick.listField, legend: pick.legend }}
          options={items}
          state={[ids[pick.field] ?? null, (id) => setId(pick.field, id)]}
          busy={busy}
        >
          {items.length === 0 && (
            <p role="alert" class="error-note">
              {pick.none}
            </p>
          )}
        </ChoiceList>
      ))}
      <ChoiceButtons label="Connect what is chosen" ready={ready} busy={busy} error={error} onCancel={onCancel} />
    </form>
  );
}

/** Google, through the search-engine grant. */
export const SEARCH_GRANT: GrantProvider = {
  name: 'searchco',
  Choose: AccountPicker,
  words: {
    connectClass: 'connection-form',
    intro:
      'Sign in with the Google account that manages your ads and allow Payback to read and manage Google Ads. You then choose the ad account; its spend is read hourly, and approved budget changes are applied to its campaigns.',
    reconnectIntro: (noun) =>
      `Sign in to Google again, for a grant that expired or was removed, or to connect another ${noun}. The new grant replaces the stored one.`,
    button: 'Connect Google Ads',
    reconnectButton: 'Reconnect Google Ads',
    note: "Google's consent page opens in this tab and brings you back here. The link it uses is valid for 15 minutes.",
    article: 'google-grant',
    title: 'Connect Google Ads',
    reading: 'Reading what Google answered',
    waiting: "Waiting for Google: finish signing in on Google's page. This page checks every second.",
    failed: 'Google Ads was not connected',
    done: "This grant's account was already chosen; its connection is listed on this page. To connect another account, start again.",
  },
};
