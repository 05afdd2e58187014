// What the customer-database kinds share on the connections pages: one "Connect a database"
// offer for the engines not connected yet, and the card's event maps (their count among the
// facts, the editor, opened at once while the connection is staged without any) and its
// "Replace credentials". Each engine's module (`kinds/sql_a.tsx`, ...) registers these with its
// `DatabaseShape`.

import { useState } from 'preact/hooks';
import { ConnectDatabase } from './connect-database';
import { DatabaseForm } from './database-form';
import type { DatabaseShape } from './database-types';
import { mapTitle } from './event-map-draft';
import { EventMapEditor } from './event-map-editor';
import type { CardExtras, CardProps, KindModule, Offer } from './kind-module';
import { mapCountWords } from './words';

/** The databases' one offer: the engines the product has no connection for. */
export const DATABASE_OFFER: Offer = {
  render: ({ slug, missing, onConnected }) => (
    <ConnectDatabase
      slug={slug}
      open={missing.flatMap((k) => (k.database ? [k.database] : []))}
      onConnected={onConnected}
    />
  ),
};

/** A database card's extras. */
function useDatabaseCard(shape: DatabaseShape, { connection, headingId, onChanged }: CardProps): CardExtras {
  const maps = connection.event_maps ?? [];
  const [editing, setEditing] = useState(maps.length === 0);
  const editorId = `${headingId}-maps`;
  return {
    facts: (
      <>
        <dt>Event maps</dt>
        <dd>
          <span class="map-count">{mapCountWords(maps)}</span>
          {maps.length > 0 && `: ${maps.map(mapTitle).join(', ')}`}
          {connection.status === 'pending' && ' (staged: nothing is read until the maps are activated)'}
        </dd>
      </>
    ),
    actions: (
      <button
        type="button"
        class="outline small"
        aria-expanded={editing}
        aria-controls={editorId}
        onClick={() => setEditing((open) => !open)}
      >
        {editing ? 'Close event maps' : 'Edit event maps'}
      </button>
    ),
    disconnect: (
      <>
        Payback deletes the stored credentials and the event maps and stops reading the database. Everything already
        read stays in your reports.
      </>
    ),
    panels: (
      <>
        {editing && (
          <div id={editorId}>
            <EventMapEditor connection={connection} shape={shape} onSaved={onChanged} />
          </div>
        )}
        <details class="replace-key">
          <summary>Replace credentials</summary>
          <DatabaseForm
            slug={connection.product_slug}
            shape={shape}
            replacing
            staged={connection.status === 'pending'}
            onConnected={onChanged}
          />
        </details>
      </>
    ),
  };
}

/** A database engine's module: its shape, the shared offer and card. */
export function databaseModule(shape: DatabaseShape): KindModule {
  return {
    kind: shape.kind,
    database: shape,
    offer: DATABASE_OFFER,
    useCard: (props) => useDatabaseCard(shape, props),
  };
}

/** What a relational database calls its things. */
export const TABLE_WORDS = { table: 'table', tables: 'tables', field: 'column' };
