// Connecting a domain in Semrush with the subscription's API key, or replacing the key of an
// existing connection. The server checks the fields' shapes only: Semrush is not called (every
// call spends API units), so a wrong key shows later as the first run's error on the card. The
// key is stored encrypted and never shown again.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { Field, formValues } from '../../../../ui/field';
import { ErrorNote } from '../../../../ui/states';
import { useAction } from '../../../../ui/use-api';
import { SecretInput } from '../../secret-input';
import type { Connected } from '../../types';
import { kindPath } from '../../words';

export function SeoAForm({
  slug,
  replacing,
  currentDomain,
  currentDatabase,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its key. */
  replacing: boolean;
  currentDomain?: string;
  currentDatabase?: string;
  onConnected: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: { api_key: string; domain: string; database?: string }) =>
        api.post<Connected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath('seo_a')}`, body),
      [slug],
    ),
  );
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    setSaved(false);
    const database = values.database?.trim();
    const answer = await connect.run({
      api_key: values.api_key,
      domain: values.domain,
      ...(database ? { database } : {}),
    });
    if (answer) {
      form.reset();
      setSaved(true);
      onConnected();
    }
  };

  return (
    <form onSubmit={submit} class="connection-form">
      <SecretInput
        label="Semrush API key"
        name="api_key"
        what="API key"
        required
        maxLength={500}
        hint="From Semrush: Subscription info, API units. Payback only reads reports with it (each read spends API units: about 1,030 a week), stores it encrypted and never shows it again."
      />
      <Field
        label="Domain"
        name="domain"
        required
        maxLength={253}
        pattern="[A-Za-z0-9]([A-Za-z0-9\-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9\-]*[A-Za-z0-9])?)+"
        autocomplete="off"
        spellcheck={false}
        placeholder="example.com"
        defaultValue={currentDomain}
        hint="The bare domain, without https:// or a path."
      />
      <Field
        label="Database (optional)"
        name="database"
        maxLength={20}
        pattern="(mobile-)?[a-z]{2}(-ext)?"
        autocomplete="off"
        spellcheck={false}
        placeholder="us"
        defaultValue={currentDatabase}
        hint="Semrush's regional database, such as us, uk or de; us when left empty."
      />
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {replacing ? 'Replace key' : 'Connect Semrush'}
      </button>
      <ErrorNote error={connect.error} />
      {saved && replacing && (
        <p role="status" class="trend-up">
          Key replaced. The next weekly run uses the new key.
        </p>
      )}
    </form>
  );
}
