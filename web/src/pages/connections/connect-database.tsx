// "Connect a database": pick the engine, give the credentials, save the connection staged.
// A product has at most one connection per engine, so engines already connected are not offered
// (their cards replace credentials instead).

import { useId, useState } from 'preact/hooks';
import { DatabaseForm } from './database-form';
import { DATABASE_KINDS } from './database-types';
import type { DatabaseKind } from './database-types';

const ENGINE_WORDS: Record<DatabaseKind, string> = {
  sql_a: 'PostgreSQL',
  sql_b: 'MySQL or MariaDB',
  docdb: 'MongoDB',
};

export function ConnectDatabase({
  slug,
  connected,
  onConnected,
}: {
  slug: string;
  /** The engines this product already has a connection for. */
  connected: DatabaseKind[];
  onConnected: () => void;
}) {
  const titleId = useId();
  const open = DATABASE_KINDS.filter((kind) => !connected.includes(kind));
  const [picked, setPicked] = useState<DatabaseKind>(open[0] ?? 'sql_a');
  if (open.length === 0) return null;
  const kind = open.includes(picked) ? picked : open[0];

  return (
    <article aria-labelledby={titleId} class="connect-database">
      <h2 id={titleId}>Connect a database</h2>
      <p class="muted">
        Read signups, orders or any other rows of your own database as funnel events. Payback only reads: give it a
        user that may read the tables you will map.
      </p>
      <fieldset>
        <legend>Engine</legend>
        {open.map((engine) => (
          <label key={engine}>
            <input
              type="radio"
              name={`${titleId}-engine`}
              value={engine}
              checked={engine === kind}
              onChange={() => setPicked(engine)}
            />
            {ENGINE_WORDS[engine]}
          </label>
        ))}
      </fieldset>
      <DatabaseForm key={kind} slug={slug} kind={kind} replacing={false} onConnected={onConnected} />
    </article>
  );
}
