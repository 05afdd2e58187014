// Connecting a domain in Ahrefs with the user's API key, or replacing the key of an existing
// connection. The server proves the key with one read of the domain's rating; a refusal (a
// deleted key, a plan without API access) is shown under the form in Ahrefs' words. The key is
// stored encrypted and never shown again.

import { Field } from '../../../../ui/field';
import { KeyForm } from '../../key-form';
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
  return (
    <KeyForm
      slug={slug}
      path={kindPath('seo_b')}
      replacing={replacing}
      onConnected={onConnected}
      connectLabel="Connect Ahrefs"
      secretWord="key"
      nextRead="weekly run"
      secret={{
        label: 'Ahrefs API key',
        name: 'api_key',
        what: 'API key',
        maxLength: 500,
        hint: 'From Ahrefs: Account settings, API keys (API v3). Payback only reads with it, stores it encrypted and never shows it again.',
      }}
      body={(values) => ({ api_key: values.api_key, domain: values.domain })}
      fields={
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
      }
    />
  );
}
