// Google Ads through the search-engine grant: "Connect Google Ads" starts the grant and opens
// Google's consent page in this tab; Google sends the person back through the service's
// callback to this product's Connections page with `searchco_state` in the hash, where
// `GoogleAdsGrant` polls the grant's status every second until Google's answer is in, then
// lists the ad accounts it reaches (managers shown for orientation, never chosen; accounts in
// another currency than the product's shown but not offered) and activates the one picked.

import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from '../../api';
import { ErrorNote, Loading } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { AdsCustomerOption, GrantSelected, GrantStarted, GrantStatus } from './types';
import { customerIdWords } from './words';

/** How often the grant's status is read while Google has not answered yet. */
const POLL_MS = 1_000;

/** The button that starts the grant and leaves for Google's consent page. */
export function GoogleAdsConnect({ slug, reconnect }: { slug: string; reconnect: boolean }) {
  const start = useAction(
    useCallback(
      () =>
        api.post<GrantStarted>('/connect/searchco/start', {
          product_slug: slug,
          kinds: ['search_ads'],
          client: 'dashboard',
        }),
      [slug],
    ),
  );
  const [leaving, setLeaving] = useState(false);
  return (
    <div class="connection-form">
      <p>
        {reconnect
          ? 'Sign in to Google again, for a grant that expired or was removed, or to connect another ad account. The new grant replaces the stored one.'
          : 'Sign in with the Google account that manages your ads and allow Payback to read and manage Google Ads. You then choose the ad account; its spend is read hourly, and approved budget changes are applied to its campaigns.'}
      </p>
      <button
        type="button"
        aria-busy={start.busy || leaving}
        disabled={start.busy || leaving}
        onClick={async () => {
          const answer = await start.run();
          if (answer) {
            setLeaving(true);
            window.location.assign(answer.auth_url);
          }
        }}
      >
        {reconnect ? 'Reconnect Google Ads' : 'Connect Google Ads'}
      </button>
      <small class="muted">
        Google's consent page opens in this tab and brings you back here. The link it uses is valid for 15 minutes.
      </small>
      <ErrorNote error={start.error} />
    </div>
  );
}

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

export function GoogleAdsGrant({
  slug,
  state,
  currency,
  onSelected,
  onDismiss,
}: {
  slug: string;
  /** The grant's `searchco_state`, from the page's hash query. */
  state: string;
  /** The product's currency: accounts reporting in another one are not offered. */
  currency: string;
  /** The account is connected; `name` says which, for the page's notice. */
  onSelected: (name: string) => void;
  /** Leaves the flow (drops `searchco_state` from the address). */
  onDismiss: () => void;
}) {
  const [status, setStatus] = useState<GrantStatus | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reads, setReads] = useState(0);

  // One read per second while pending; the next is scheduled only once the previous answered.
  useEffect(() => {
    let live = true;
    api
      .get<GrantStatus>(`/connect/searchco/status${query({ state })}`)
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

  const select = useAction(
    useCallback(
      (customerId: string) =>
        api.post<GrantSelected>('/connect/searchco/select', { state, ads_customer_id: customerId }),
      [state],
    ),
  );

  const wrongProduct = status !== null && status.product_slug !== slug;

  return (
    <article class="google-grant" aria-labelledby="google-grant-title" aria-live="polite">
      <h2 id="google-grant-title">Connect Google Ads</h2>
      {failure ? (
        <>
          <ErrorNote error={failure} />
          <GoogleAdsConnect slug={slug} reconnect={false} />
        </>
      ) : status === null ? (
        <Loading what="Reading what Google answered" />
      ) : wrongProduct ? (
        <p role="alert" class="error-note">
          This connect link belongs to another product ({status.product_slug}); open that product's Connections page.
        </p>
      ) : status.status === 'pending' ? (
        <p aria-busy="true" class="muted" data-grant="pending">
          Waiting for Google: finish signing in on Google's page. This page checks every second.
        </p>
      ) : status.status === 'error' ? (
        <>
          <p role="alert" class="error-note" data-grant="error">
            Google Ads was not connected: {(status.error ?? 'the grant ended in an error').replace(/\.$/, '')}.
          </p>
          <GoogleAdsConnect slug={slug} reconnect={false} />
        </>
      ) : status.results ? (
        <>
          <p role="status" data-grant="done">
            This grant's account was already chosen; its connection is listed on this page. To connect another
            account, start again.
          </p>
          <button type="button" class="outline secondary small" onClick={onDismiss}>
            Close
          </button>
        </>
      ) : (
        <AccountPicker
          customers={status.options?.ads_customers ?? []}
          currency={currency}
          busy={select.busy}
          error={select.error}
          onCancel={onDismiss}
          onChoose={async (customer) => {
            const answer = await select.run(customer.customer_id);
            if (answer?.ok) onSelected(customer.descriptive_name || customerIdWords(customer.customer_id));
          }}
        />
      )}
    </article>
  );
}

function AccountPicker({
  customers,
  currency,
  busy,
  error,
  onChoose,
  onCancel,
}: {
  customers: AdsCustomerOption[];
  currency: string;
  busy: boolean;
  error: string | null;
  onChoose: (customer: AdsCustomerOption) => Promise<void>;
  onCancel: () => void;
}) {
  const choosable = customers.filter((c) => unavailable(c, currency) === null);
  const [chosen, setChosen] = useState<string | null>(choosable.length === 1 ? choosable[0].customer_id : null);
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
        if (picked) await onChoose(picked);
      }}
    >
      <fieldset>
        <legend>Choose the ad account whose spend feeds this product</legend>
        {customers.map((customer) => {
          const why = unavailable(customer, currency);
          const id = `ads-customer-${customer.customer_id}`;
          const state = statusWords(customer.status);
          return (
            <div class={`account-option${why ? ' muted' : ''}`} data-customer={customer.customer_id} key={customer.customer_id}>
              <label for={id}>
                <input
                  id={id}
                  type="radio"
                  name="ads_customer_id"
                  value={customer.customer_id}
                  checked={chosen === customer.customer_id}
                  disabled={why !== null || busy}
                  aria-describedby={`${id}-facts`}
                  onChange={() => setChosen(customer.customer_id)}
                />
                {customer.descriptive_name || 'Unnamed account'} ({customerIdWords(customer.customer_id)})
              </label>
              <small id={`${id}-facts`}>
                {[
                  customer.currency_code ? `currency ${customer.currency_code}` : 'currency not reported',
                  state,
                  customer.login_customer_id !== customer.customer_id
                    ? `managed by ${customerIdWords(customer.login_customer_id)}`
                    : null,
                  why,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </small>
            </div>
          );
        })}
      </fieldset>
      {choosable.length === 0 && (
        <p role="alert" class="error-note">
          None of these accounts can feed this product: managers hold no campaigns, and accounts in another currency
          than {currency} are never mixed in.
        </p>
      )}
      <div class="funnel-buttons">
        <button type="submit" aria-busy={busy} disabled={busy || !picked}>
          Connect this account
        </button>
        <button type="button" class="outline secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
