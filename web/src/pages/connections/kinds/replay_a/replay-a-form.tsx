// Connecting a Microsoft Clarity project with its Data Export API token, or replacing the token
// of an existing connection. The server proves the token with one export request, one of the
// project's ten a day; a refusal is shown under the form in Clarity's words. The token is
// stored encrypted and never shown again.

import { Field } from '../../../../ui/field';
import { KeyForm } from '../../key-form';
import { kindPath } from '../../words';

export function ReplayAForm({
  slug,
  replacing,
  currentProject,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its token. */
  replacing: boolean;
  currentProject?: string;
  onConnected: () => void;
}) {
  return (
    <KeyForm
      slug={slug}
      path={kindPath('replay_a')}
      replacing={replacing}
      onConnected={onConnected}
      connectLabel="Connect Clarity"
      secretWord="token"
      nextRead="daily run"
      secret={{
        label: 'Clarity API token',
        name: 'api_token',
        what: 'API token',
        maxLength: 4000,
        hint: 'From Clarity: Settings, Data Export, Generate new API token. Payback only reads with it, stores it encrypted and never shows it again.',
      }}
      body={(values) => ({ api_token: values.api_token, project_id: values.project_id })}
      fields={
        <Field
          label="Project id"
          name="project_id"
          required
          maxLength={64}
          pattern="[A-Za-z0-9]+"
          autocomplete="off"
          spellcheck={false}
          placeholder="k3x9p2q7ab"
          defaultValue={currentProject}
          hint="Clarity: Settings, Overview, Project ID (letters and digits)."
        />
      }
    />
  );
}
