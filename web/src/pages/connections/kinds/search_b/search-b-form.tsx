// Connecting a site of Bing Webmaster Tools with the user's API key, or replacing the key of an
// existing connection. The server proves the key by listing its sites, which must include the
// site; a refusal (a regenerated key, a site of another account) is shown under the form in the
// server's words. The key is stored encrypted and never shown again.

import { Field } from '../../../../ui/field';
import { KeyForm } from '../../key-form';
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
  return (
    <KeyForm
      slug={slug}
      path={kindPath('search_b')}
      replacing={replacing}
      onConnected={onConnected}
      connectLabel="Connect Bing Webmaster Tools"
      secretWord="key"
      nextRead="sync"
      secret={{
        label: 'Bing Webmaster API key',
        name: 'api_key',
        what: 'API key',
        maxLength: 500,
        hint: 'From Bing Webmaster Tools: Settings, API access, API Key. One key reaches every site its user verified. Payback only reads search data with it, stores it encrypted and never shows it again.',
      }}
      body={(values) => ({ api_key: values.api_key, site_url: values.site_url })}
      fields={
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
      }
    />
  );
}
