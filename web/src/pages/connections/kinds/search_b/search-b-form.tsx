// Connecting a site of Bing Webmaster Tools with the user's API key, or replacing the key of an
// existing connection. The server proves the key by listing its sites, which must include the
// site; a refusal (a regenerated key, a site of another account) is shown under the form in the
// server's words. The key is stored encrypted and never shown again.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { Field, formValues } from '../../../../ui/field';
import { ErrorNote } from '../../../../ui/states';
import { useAction } from '../../../../ui/use-api';
import { SecretInput } from '../../secret-input';
import type { Connected } from '../../types';
import { kindPath } from '../../words';

export function SearchBForm({
  slug,
  replacing,
  currentSite,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its key. */
  replacing: boolean;
  currentSite?: string;
  onConnected: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: { api_key: string; site_url: string }) =>
        api.post<Connected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath('search_b')}`, body),
      [slug],
    ),
  );
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    setSaved(false);
    const answer = await connect.run({ api_key: values.api_key, site_url: values.site_url });
    if (answer) {
      form.reset();
      setSaved(true);
      onConnected();
    }
  };

  return (
    <form onSubmit={submit} class="connection-form">
      <SecretInput
        label="Bing Webmaster API key"
        name="api_key"
        what="API key"
        required
        maxLength={500}
        hint="From Bing Webmaster Tools: Settings, API access, API Key. One key reaches every site its user verified. Payback only reads search data with it, stores it encrypted and never shows it again."
      />
      <Field
        label="Site URL"
        name="site_url"
        type="url"
        required
        maxLength={2048}
        pattern="[Hh][Tt][Tt][Pp][Ss]?://.+/"
        autocomplete="off"
        spellcheck={false}
        placeholder="https://www.example.com/"
        defaultValue={currentSite}
        hint="The site exactly as it is verified in Bing Webmaster Tools, with its trailing slash."
      />
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {replacing ? 'Replace key' : 'Connect Bing Webmaster Tools'}
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
