// The search-engine grant's service-account path, for a kind that offers it (web analytics, tag
// manager, Search Console): instead of signing in, the person gives Payback's Google service
// account access in Google's product, then verifies here. Three steps: show the account's
// address and the steps for this kind (`service-account/start`), list what the account now
// reaches (`verify` without an id, as the kind's grant picker lists it), and connect the chosen
// one (`verify` with its id: Payback proves it with a live read first).

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { ChoiceButtons, ChoiceList } from './grant-connect';
import type { KindModule } from './kind-module';

interface AccountStarted {
  sa_email: string;
  kinds: string[];
  instructions: Record<string, string[]>;
}

interface AccountVerified {
  sa_email: string;
  status?: string;
  activated?: string[];
  options?: Record<string, unknown> & { errors?: Record<string, string> };
}

/** The service-account path for `kind` on product `slug`; `onConnected` once it is active. */
export function ServiceAccountConnect({
  slug,
  kind,
  onConnected,
}: {
  slug: string;
  kind: KindModule;
  onConnected: () => void;
}) {
  const grant = kind.grant;
  const pick = grant?.pick;
  const start = useAction(
    useCallback(
      () =>
        api.post<AccountStarted>('/connect/searchco/service-account/start', {
          product_slug: slug,
          kinds: [kind.kind],
        }),
      [slug, kind.kind],
    ),
  );
  const verify = useAction(
    useCallback(
      (choice: string | null) =>
        api.post<AccountVerified>('/connect/searchco/service-account/verify', {
          product_slug: slug,
          ...(choice && pick ? { [pick.field]: choice } : {}),
        }),
      [slug, pick],
    ),
  );
  const [started, setStarted] = useState<AccountStarted | null>(null);
  const [reached, setReached] = useState<AccountVerified | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  if (!grant || !pick) return null;
  const items = reached?.options?.[grant.choice] !== undefined ? pick.items(reached.options[grant.choice]) : null;
  const listingError = reached?.options?.errors?.[kind.kind] ?? null;
  return (
    <div class="connection-form" data-service-account={kind.kind}>
      <p>
        Prefer not to sign in? Give Payback's Google service account access to your {grant.noun} instead; Payback reads
        it with that account and you can remove the access in Google at any time.
      </p>
      {!started ? (
        <button
          type="button"
          class="outline"
          aria-busy={start.busy}
          disabled={start.busy}
          onClick={async () => {
            const answer = await start.run();
            if (answer) setStarted(answer);
          }}
        >
          Show the service account
        </button>
      ) : (
        <>
          <p>
            Service account: <code data-sa-email>{started.sa_email}</code>
          </p>
          <ol data-sa-steps>
            {(started.instructions[kind.kind] ?? []).map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <button
            type="button"
            aria-busy={verify.busy}
            disabled={verify.busy}
            onClick={async () => {
              const answer = await verify.run(null);
              if (answer) setReached(answer);
            }}
          >
            I gave access: verify
          </button>
        </>
      )}
      <ErrorNote error={start.error} />
      {listingError && (
        <p role="alert" class="error-note">
          Google refused the service account: {listingError}
        </p>
      )}
      {items && (
        <form
          class="account-picker"
          onSubmit={async (event) => {
            event.preventDefault();
            if (!chosen) return;
            const answer = await verify.run(chosen);
            if (answer?.status === 'complete') onConnected();
          }}
        >
          <ChoiceList list={{ field: pick.listField, legend: pick.legend }} options={items} state={[chosen, setChosen]} busy={verify.busy}>
            {items.length === 0 && (
              <p role="alert" class="error-note">
                The service account reaches no {grant.noun} yet. Give it access as above (Google may take a minute), then
                verify again.
              </p>
            )}
          </ChoiceList>
          <ChoiceButtons
            label={`Verify and connect this ${grant.noun}`}
            ready={chosen !== null}
            busy={verify.busy}
            error={verify.error}
            onCancel={() => {
              setReached(null);
              setChosen(null);
            }}
          />
        </form>
      )}
      {!items && <ErrorNote error={verify.error} />}
    </div>
  );
}
