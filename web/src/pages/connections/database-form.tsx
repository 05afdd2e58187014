// Connecting a product's own database (PostgreSQL, MySQL/MariaDB or MongoDB), or replacing the
// credentials of one already connected. The credentials are sent once and stored encrypted;
// the connection's config shows only `user@host:port/database`. A new connection is saved
// staged: nothing is read until its event maps are saved and it is activated. A refusal (a
// field the server names, no PAYBACK_SECRET_KEY) is shown under the form in the server's words.

import { useCallback, useId, useState } from 'preact/hooks';
import { api } from '../../api';
import { Field, formValues } from '../../ui/field';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { DatabaseConnected, DatabaseShape, DocdbCredentials, SqlCredentials } from './database-types';
import { SecretInput } from './secret-input';
import { kindPath } from './words';

export function DatabaseForm({
  slug,
  shape,
  replacing,
  staged = false,
  onConnected,
}: {
  slug: string;
  shape: DatabaseShape;
  /** True when the product already has this connection: the form replaces its credentials. */
  replacing: boolean;
  /**
   * The connection being replaced is staged: it stays so (the server would otherwise activate a
   * connection that has maps).
   */
  staged?: boolean;
  onConnected: () => void;
}) {
  const kind = shape.kind;
  const [saved, setSaved] = useState(false);
  // Bumped after a save: the fields mount again, empty, with their secrets hidden.
  const [generation, setGeneration] = useState(0);
  const connect = useAction(
    useCallback(
      (credentials: SqlCredentials | DocdbCredentials) =>
        api.post<DatabaseConnected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath(kind)}`, {
          credentials,
          status: staged ? 'pending' : undefined,
        }),
      [slug, kind, staged],
    ),
  );
  const submit = async (event: Event) => {
    const values = formValues(event);
    setSaved(false);
    const answer = await connect.run(shape.connectsByUri ? { uri: values.uri } : sqlCredentials(values));
    if (answer) {
      setGeneration((n) => n + 1);
      setSaved(true);
      onConnected();
    }
  };

  return (
    <form onSubmit={submit} class="connection-form database-form" key={generation}>
      {shape.connectsByUri ? <DocdbFields /> : <SqlFields defaultPort={shape.defaultPort} />}
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {replacing ? 'Replace credentials' : 'Save connection'}
      </button>
      {!replacing && (
        <small>
          Saved as <strong>staged</strong>: Payback reads nothing until you save event maps and activate the
          connection. Use a read-only database user.
        </small>
      )}
      <ErrorNote error={connect.error} />
      {saved && replacing && (
        <p role="status" class="trend-up">
          Credentials replaced. The next sync uses them.
        </p>
      )}
    </form>
  );
}

/** The submitted fields as the connect body's `credentials`; empty optional fields are left out. */
function sqlCredentials(values: Record<string, string>): SqlCredentials {
  const credentials: SqlCredentials = {
    host: values.host,
    user: values.user,
    database: values.database,
    sslmode: values.sslmode,
  };
  if (values.port) credentials.port = Number(values.port);
  if (values.password) credentials.password = values.password;
  return credentials;
}

/** Host, port, user...; `defaultPort` is the engine's, shown as the placeholder (the server applies it when empty). */
function SqlFields({ defaultPort }: { defaultPort: number }) {
  const hintId = useId();
  return (
    <>
      <div class="grid">
        <div>
          <Field
            label="Host"
            name="host"
            required
            maxLength={253}
            autocomplete="off"
            spellcheck={false}
            placeholder="db.example.com"
          />
        </div>
        <div>
          <Field
            label="Port"
            name="port"
            type="number"
            min={1}
            max={65535}
            placeholder={String(defaultPort)}
            hint={`Empty means ${defaultPort}.`}
          />
        </div>
      </div>
      <div class="grid">
        <div>
          <Field label="User" name="user" required maxLength={128} autocomplete="off" spellcheck={false} />
        </div>
        <div>
          <Field label="Database" name="database" required maxLength={128} autocomplete="off" spellcheck={false} />
        </div>
      </div>
      <SecretInput
        label="Password"
        name="password"
        what="password"
        maxLength={500}
        hint="Stored encrypted and never shown again. Leave empty for a user without one."
      />
      <label>
        Encryption (SSL mode)
        <select name="sslmode" defaultValue="prefer" aria-describedby={hintId}>
          <option value="prefer">prefer: TLS when the server offers it</option>
          <option value="require">require: TLS or nothing</option>
          <option value="disable">disable: plain connection (local networks only)</option>
        </select>
      </label>
      <small id={hintId}>Certificates are not verified, so self-signed ones work.</small>
    </>
  );
}

function DocdbFields() {
  return (
    <SecretInput
      label="Connection string"
      name="uri"
      what="connection string"
      required
      placeholder="mongodb+srv://reader:…@cluster0.example.net/shop"
      hint="A mongodb:// or mongodb+srv:// string naming the database after the host. It holds the password: Payback stores it encrypted and shows only the hosts and database."
    />
  );
}
