// Connecting an SE Ranking project with the account's Project API key, or replacing the key of
// an existing connection. The server proves the key by listing its projects: one project is
// used as it is; when the key sees several, the server's refusal names them ("choose one of
// 77 (Shop), ...") and the form asks for the project's id. Any refusal is shown under the form
// in the server's words. The key is stored encrypted and never shown again.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { Field, formValues } from '../../../../ui/field';
import { ErrorNote } from '../../../../ui/states';
import { useAction } from '../../../../ui/use-api';
import { SecretInput } from '../../secret-input';
import type { Connected } from '../../types';
import { kindPath } from '../../words';

interface GeoABody {
  api_key: string;
  company_id?: string;
}

export function GeoAForm({
  slug,
  replacing,
  currentCompany,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its key. */
  replacing: boolean;
  currentCompany?: string;
  onConnected: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: GeoABody) =>
        api.post<Connected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath('geo_a')}`, body),
      [slug],
    ),
  );
  // The project field is asked for once it matters: when replacing, or when the key sees several.
  const choosing = replacing || (connect.error?.startsWith('company_id:') ?? false);
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    setSaved(false);
    const body: GeoABody = { api_key: values.api_key };
    if (values.company_id) body.company_id = values.company_id;
    const answer = await connect.run(body);
    if (answer) {
      form.reset();
      setSaved(true);
      onConnected();
    }
  };

  return (
    <form onSubmit={submit} class="connection-form">
      <SecretInput
        label="SE Ranking API key"
        name="api_key"
        what="API key"
        required
        maxLength={500}
        hint="From SE Ranking: Settings, API, the Project API key (40 characters). Payback only reads with it, stores it encrypted and never shows it again."
      />
      {choosing && (
        <Field
          label="SE Ranking project id"
          name="company_id"
          maxLength={64}
          autocomplete="off"
          spellcheck={false}
          inputMode="numeric"
          defaultValue={currentCompany}
          hint="The id of the project to read, one of those listed below when the key sees several. Leave empty when the key sees one project."
        />
      )}
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {replacing ? 'Replace key' : 'Connect SE Ranking'}
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
