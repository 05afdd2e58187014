// "Connect a database": pick the engine, give the credentials, save the connection staged.
// A product has at most one connection per engine, so engines already connected are not offered
// (their cards replace credentials instead).

import { useId, useState } from 'preact/hooks';
import { DatabaseForm } from './database-form';
import type { DatabaseShape } from './database-types';

export function ConnectDatabase({
  slug,
  open,
  onConnected,
}: {
  slug: string;
  /** The engines this product has no connection for yet (never empty). */
  open: DatabaseShape[];
  onConnected: () => void;
}) {
  const titleId = useId();
  const [picked, setPicked] = useState<string>(open[0]?.kind ?? '');
  const shape = open.find((engine) => engine.kind === picked) ?? open[0];
  if (!shape) return null;

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
          <label key={engine.kind}>
            <input
              type="radio"
              name={`${titleId}-engine`}
              value={engine.kind}
              checked={engine.kind === shape.kind}
              onChange={() => setPicked(engine.kind)}
            />
            {engine.engine}
          </label>
        ))}
      </fieldset>
      <DatabaseForm key={shape.kind} slug={slug} shape={shape} replacing={false} onConnected={onConnected} />
    </article>
  );
}
