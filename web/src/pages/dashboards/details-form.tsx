// A dashboard's name and description, edited in place; an emptied description is cleared.

import { useState } from 'preact/hooks';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { updateDashboard } from './requests';
import type { Dashboard } from './types';
import { DESCRIPTION_MAX, NAME_MAX } from './types';

export function DetailsForm({ dashboard, onSaved }: { dashboard: Dashboard; onSaved: (d: Dashboard) => void }) {
  const [name, setName] = useState(dashboard.name);
  const [description, setDescription] = useState(dashboard.description ?? '');
  const [done, setDone] = useState(false);
  const save = useAction(async () => {
    const text = description.trim();
    onSaved(await updateDashboard(dashboard.id, { name: name.trim(), description: text ? text : null }));
    setDone(true);
  });
  return (
    <details class="dashboard-details">
      <summary>Name and description</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <label>
          Name
          <input
            name="name"
            required
            maxLength={NAME_MAX}
            value={name}
            onInput={(e) => {
              setDone(false);
              setName((e.currentTarget as HTMLInputElement).value);
            }}
          />
        </label>
        <label>
          Description <span class="muted">(optional)</span>
          <input
            name="description"
            maxLength={DESCRIPTION_MAX}
            value={description}
            onInput={(e) => {
              setDone(false);
              setDescription((e.currentTarget as HTMLInputElement).value);
            }}
          />
        </label>
        <button type="submit" aria-busy={save.busy} disabled={save.busy || !name.trim()}>
          Save name and description
        </button>
        <div role="status">{done && <p class="notice-success">Name and description saved.</p>}</div>
        <ErrorNote error={save.error} />
      </form>
    </details>
  );
}
