// Connecting a PostHog project with a personal API key (US cloud by default, or the EU cloud's
// or a self-hosted instance's origin), or replacing the key. The server proves the key with one
// read of the project; a refusal, or a host on a private address, is shown under the form.

import { Field } from '../../../../ui/field';
import { KeyForm } from '../../key-form';
import { kindPath } from '../../words';

export function ProductAnalyticsAForm({
  slug,
  replacing,
  currentProject,
  currentHost,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its key. */
  replacing: boolean;
  currentProject?: string;
  currentHost?: string;
  onConnected: () => void;
}) {
  return (
    <KeyForm
      slug={slug}
      path={kindPath('product_analytics_a')}
      replacing={replacing}
      onConnected={onConnected}
      connectLabel="Connect PostHog"
      secretWord="key"
      nextRead="sync"
      secret={{
        label: 'PostHog personal API key',
        name: 'api_key',
        what: 'personal API key',
        maxLength: 500,
        hint: 'From PostHog: Settings, Personal API keys, with read access to queries, recordings and the project. Stored encrypted, never shown again.',
      }}
      body={(values) => {
        const host = (values.host ?? '').trim();
        return host
          ? { api_key: values.api_key, project_id: values.project_id, host }
          : { api_key: values.api_key, project_id: values.project_id };
      }}
      fields={
        <>
          <Field
            label="Project id"
            name="project_id"
            required
            maxLength={20}
            pattern="[0-9]+"
            inputmode="numeric"
            autocomplete="off"
            placeholder="12345"
            defaultValue={currentProject}
            hint="PostHog: Settings, Project, Project ID (digits)."
          />
          <Field
            label="Host (optional)"
            name="host"
            maxLength={2048}
            autocomplete="off"
            spellcheck={false}
            placeholder="https://eu.posthog.com"
            defaultValue={currentHost}
            hint="Leave empty for PostHog's US cloud; the EU cloud or your self-hosted origin otherwise."
          />
        </>
      }
    />
  );
}
