// Connecting a domain in Semrush with the subscription's API key, or replacing the key of an
// existing connection. The server checks the fields' shapes only: Semrush is not called (every
// call spends API units), so a wrong key shows later as the first run's error on the card. The
// key is stored encrypted and never shown again.

import { Field } from '../../../../ui/field';
import { KeyForm } from '../../key-form';
import { kindPath } from '../../words';

/** The posted body: the database only when one was typed (the server's default is `us`). */
function seoABody(values: Record<string, string>) {
  const database = values.database?.trim();
  return { api_key: values.api_key, domain: values.domain, ...(database ? { database } : {}) };
}

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
  return (
    <KeyForm
      slug={slug}
      path={kindPath('seo_a')}
      replacing={replacing}
      onConnected={onConnected}
      connectLabel="Connect Semrush"
      secretWord="key"
      nextRead="weekly run"
      secret={{
        label: 'Semrush API key',
        name: 'api_key',
        what: 'API key',
        maxLength: 500,
        hint: 'From Semrush: Subscription info, API units. Payback only reads reports with it (each read spends API units: about 1,030 a week), stores it encrypted and never shows it again.',
      }}
      body={seoABody}
      fields={
        <>
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
        </>
      }
    />
  );
}
