// `#/settings/keys`: the workspace's API keys (for agents and scripts). A new key is shown in
// full exactly once; the list only ever has prefixes, and who created each key (disabling that
// person stops their keys). Revoking stops the key at once.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import { when } from '../../format';
import { Await, Empty, ErrorNote } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useAction, useApi } from '../../ui/use-api';
import { CopyableValue } from './copy-button';
import { readForm } from './form-values';
import { SettingsFrame } from './settings-frame';
import { Field } from '../../ui/field';
import type { ApiKeyItem, CreatedKey } from './types';

export function KeysPage() {
  const keys = useApi<ApiKeyItem[]>('/auth/keys');
  const columns: Column<ApiKeyItem>[] = [
    { title: 'Name', cell: (k) => k.name },
    { title: 'Starts with', cell: (k) => <code>{k.prefix}…</code> },
    { title: 'Created', cell: (k) => when(k.created_at) },
    // No creator: an agent made the key (at its sign-up, or through such a key).
    { title: 'Created by', cell: (k) => k.created_by?.email ?? 'agent' },
    { title: 'Last used', cell: (k) => when(k.last_used_at, 'never') },
    { title: '', cell: (k) => <RevokeKey apiKey={k} onRevoked={keys.reload} /> },
  ];
  return (
    <SettingsFrame title="API keys" path="/settings/keys">
      <p class="muted">
        A key lets a script or an AI agent read this workspace and propose changes through the API
        (send it as <code>Authorization: Bearer …</code>). Keys are no person: spend changes they
        propose still wait for a human in the queue.
      </p>
      <CreateKey onCreated={keys.reload} />
      <h2>Keys</h2>
      <Await loaded={keys} what="Loading the keys">
        {(list) =>
          list.length === 0 ? (
            <Empty title="No API keys yet">Create one above to connect an agent or a script.</Empty>
          ) : (
            <Table columns={columns} rows={list} rowKey={(k) => k.id} caption="Active API keys" />
          )
        }
      </Await>
    </SettingsFrame>
  );
}

function CreateKey({ onCreated }: { onCreated: () => void }) {
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const create = useAction(async (form: HTMLFormElement, name: string) => {
    setCreated(null);
    // No name means the server's default name, `default`.
    const key = await api.post<CreatedKey>('/auth/keys', name ? { name } : {});
    form.reset();
    setCreated(key);
    onCreated();
  });
  return (
    <article>
      <h2>New key</h2>
      <form
        onSubmit={(event) => {
          const form = event.currentTarget as HTMLFormElement;
          void create.run(form, readForm(event).name);
        }}
      >
        <Field
          id="key-name"
          label="Key name"
          name="name"
          maxLength={80}
          placeholder="e.g. growth agent"
          hint="Say what uses it, so you know what breaks if you revoke it. Up to 80 characters; blank names it “default”."
        />
        <ErrorNote error={create.error} />
        <button type="submit" aria-busy={create.busy} disabled={create.busy}>
          Create key
        </button>
      </form>
      {created && (
        <section class="notice-warning" aria-live="polite">
          <p>
            <strong>Copy the key “{created.name}” now.</strong> Payback stores only a fingerprint
            of it and will never show it again; if it is lost, revoke it and create another.
          </p>
          <CopyableValue id="new-key" label="New API key" value={created.key} />
          <button type="button" class="secondary outline small" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </section>
      )}
    </article>
  );
}

function RevokeKey({ apiKey, onRevoked }: { apiKey: ApiKeyItem; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useAction(async () => {
    await api.post(`/auth/keys/${encodeURIComponent(apiKey.id)}/revoke`);
    setConfirming(false);
    onRevoked();
  });
  if (!confirming) {
    return (
      <button
        type="button"
        class="small outline secondary"
        aria-label={`Revoke ${apiKey.name}`}
        onClick={() => setConfirming(true)}
      >
        Revoke
      </button>
    );
  }
  return (
    <div class="row-actions" role="group" aria-label={`Confirm revoking ${apiKey.name}`}>
      <span>Anything using “{apiKey.name}” stops working at once.</span>
      <button
        type="button"
        class="small contrast"
        aria-busy={revoke.busy}
        disabled={revoke.busy}
        onClick={() => void revoke.run()}
      >
        Yes, revoke
      </button>
      <button type="button" class="small secondary outline" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      <ErrorNote error={revoke.error} />
    </div>
  );
}
