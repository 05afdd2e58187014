// Connecting a domain in Ahrefs with the user's API key, or replacing the key of an existing
// connection. The server proves the key with one read of the domain's rating; a refusal (a
// deleted key, a plan without API access) is shown under the form in Ahrefs' words. The key is
// stored encrypted and never shown again.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { Field, formValues } from '../../../../ui/field';
import { ErrorNote } from '../../../../ui/states';
import { useAction } from '../../../../ui/use-api';
import { SecretInput } from '../../secret-input';
import type { Connected } from '../../types';
import { kindPath } from '../../words';

export function SeoBForm({
  slug,
  replacing,
  currentDomain,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its key. */
  replacing: boolean;
  currentDomain?: string;
  onConnected: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: { api_key: string; domain: string }) =>
        api.post<Connected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath('seo_b')}`, body),
      [slug],
    ),
  );
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    setSaved(false);
    const answer = await connect.run({ api_key: values.api_key, domain: values.domain });
    if (answer) {
      form.reset();
      setSaved(true);
      onConnected();
    }
  };

  return (
    <form onSubmit={submit} class="connection-form">
      <SecretInput
        label="Ahrefs API key"
        name="api_key"
        what="API key"
        required
        maxLength={500}
        hint="From Ahrefs: Account settings, API keys (API v3). Payback only reads with it, stores it encrypted and never shows it again."
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
        hint="The domain alone, without https:// or a path; its subdomains count with it."
      />
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {replacing ? 'Replace key' : 'Connect Ahrefs'}
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
