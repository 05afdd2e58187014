// Connecting Stripe with a key, or replacing the key of an existing connection. The key is sent
// once and stored encrypted by the server; it is never shown again (the config says only what
// kind of key it was). A refusal (a publishable key, no PAYBACK_SECRET_KEY on the server) is
// shown under the form in the server's words.

import { useCallback, useId, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { formValues } from '../../../../ui/field';
import { ErrorNote } from '../../../../ui/states';
import { useAction } from '../../../../ui/use-api';
import type { Connected } from '../../types';
import { kindPath } from '../../words';

/** The stage successful charges are recorded as; the server's default is `payment`. */
export type PaymentStage = 'converted' | 'payment';

export function PaymentsForm({
  slug,
  replacing,
  currentStage,
  onConnected,
}: {
  slug: string;
  /** True when the product already has a payments connection: the form replaces its key. */
  replacing: boolean;
  currentStage?: PaymentStage;
  onConnected: () => void;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: { api_key: string; default_stage: PaymentStage }) =>
        api.post<Connected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath('payments')}`, body),
      [slug],
    ),
  );
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    const stage: PaymentStage = values.default_stage === 'converted' ? 'converted' : 'payment';
    setSaved(false);
    const answer = await connect.run({ api_key: values.api_key, default_stage: stage });
    if (answer) {
      form.reset();
      setShown(false);
      setSaved(true);
      onConnected();
    }
  };
  const action = replacing ? 'Replace key' : 'Connect payments';

  return (
    <form onSubmit={submit} class="connection-form">
      <label for={`${id}-key`}>Stripe secret or restricted key</label>
      <div role="group" class="key-input">
        <input
          id={`${id}-key`}
          name="api_key"
          // Preact types `type` per input kind; the toggle switches one live input between two.
          type={(shown ? 'text' : 'password') as 'password'}
          required
          maxLength={500}
          autocomplete="off"
          spellcheck={false}
          placeholder="sk_live_… or rk_live_…"
          aria-describedby={`${id}-key-hint`}
        />
        <button
          type="button"
          class="outline secondary"
          aria-pressed={shown}
          aria-controls={`${id}-key`}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? 'Hide key' : 'Show key'}
        </button>
      </div>
      <small id={`${id}-key-hint`}>
        From Stripe's Developers → API keys: a secret key (<code>sk_</code>) or a restricted key (<code>rk_</code>)
        that may read charges, refunds and disputes. Test-mode keys work too. Publishable keys (<code>pk_</code>)
        cannot read anything. Payback stores the key encrypted and never shows it again.
      </small>
      <label for={`${id}-stage`}>Record successful charges as</label>
      <select
        id={`${id}-stage`}
        name="default_stage"
        defaultValue={currentStage ?? 'payment'}
        aria-describedby={`${id}-stage-hint`}
      >
        <option value="payment">payment</option>
        <option value="converted">converted</option>
      </select>
      <small id={`${id}-stage-hint`}>
        The funnel stage each charge is stored as. Both count as revenue and make the payer a customer; pick
        converted when your funnel ends at the converted step and nothing else sends it.
      </small>
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {action}
      </button>
      <ErrorNote error={connect.error} />
      {saved && replacing && (
        <p role="status" class="trend-up">
          Key replaced. The next sync uses the new key.
        </p>
      )}
    </form>
  );
}
