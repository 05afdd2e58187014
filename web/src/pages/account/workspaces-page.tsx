// `#/settings/workspaces`: every workspace you belong to, which one this session is in, switching
// between them, and starting a new one (you become its owner).

import { useState } from 'preact/hooks';
import { useAccount } from '../../account';
import { api } from '../../api';
import { navigate } from '../../router';
import type { Workspace } from '../../types';
import { Await, ErrorNote } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useAction, useApi } from '../../ui/use-api';
import { readForm } from './form-values';
import { SettingsFrame } from './settings-frame';
import type { WorkspaceSwitch } from './types';

export function WorkspacesPage() {
  const workspaces = useApi<Workspace[]>('/auth/accounts');
  return (
    <SettingsFrame title="Workspaces" path="/settings/workspaces">
      <p class="muted">
        Each workspace has its own products, team, API keys and approval queue. Switching changes
        what this session sees.
      </p>
      <Await loaded={workspaces} what="Loading your workspaces">
        {(list) => <WorkspaceList workspaces={list} />}
      </Await>
      <CreateWorkspace onCreated={workspaces.reload} />
    </SettingsFrame>
  );
}

function WorkspaceList({ workspaces }: { workspaces: Workspace[] }) {
  const { account, refresh } = useAccount();
  const switchTo = useAction(async (workspace: Workspace) => {
    await api.post<WorkspaceSwitch>('/auth/switch-account', { account_id: workspace.id });
    await refresh();
    navigate('/');
  });
  const columns: Column<Workspace>[] = [
    {
      title: 'Workspace',
      cell: (w) => (
        <>
          {w.name}
          {w.id === account.id && <span class="badge">current</span>}
        </>
      ),
    },
    { title: 'Your role', cell: (w) => w.member_role },
    {
      title: '',
      cell: (w) =>
        w.id === account.id ? (
          <span class="muted">You are here</span>
        ) : (
          <button
            type="button"
            class="small"
            aria-label={`Switch to ${w.name}`}
            disabled={switchTo.busy}
            onClick={() => void switchTo.run(w)}
          >
            Switch
          </button>
        ),
    },
  ];
  return (
    <>
      <Table columns={columns} rows={workspaces} rowKey={(w) => w.id} caption="Your workspaces" />
      <ErrorNote error={switchTo.error} />
    </>
  );
}

function CreateWorkspace({ onCreated }: { onCreated: () => void }) {
  const { refresh } = useAccount();
  const [created, setCreated] = useState<string | null>(null);
  const create = useAction(async (form: HTMLFormElement, name: string) => {
    setCreated(null);
    const answer = await api.post<WorkspaceSwitch>('/auth/accounts', { name });
    form.reset();
    await refresh();
    onCreated();
    setCreated(answer.account.account_name ?? name);
  });
  return (
    <article>
      <h2>New workspace</h2>
      <p class="muted">
        For a separate business or client: you become its owner and this session switches to it.
      </p>
      <form
        onSubmit={(event) => {
          const form = event.currentTarget as HTMLFormElement;
          void create.run(form, readForm(event).name);
        }}
      >
        <label>
          Workspace name
          <input name="name" required minLength={1} maxLength={80} />
        </label>
        <ErrorNote error={create.error} />
        {created && (
          <p role="status" class="notice-success">
            Created {created}; you are now in it.
          </p>
        )}
        <button type="submit" aria-busy={create.busy} disabled={create.busy}>
          Create workspace
        </button>
      </form>
    </article>
  );
}
