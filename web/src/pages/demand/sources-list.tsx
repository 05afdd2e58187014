// Every kind that feeds the report: connected (when it last read, what it feeds) or a link to
// connect it on the product's Connections page.

import { when } from '../../format';
import { href } from '../../router';
import type { DemandSource } from './types';
import { partLabel, sourceLabel } from './words';

export function SourcesList({ slug, sources }: { slug: string; sources: DemandSource[] }) {
  return (
    <ul class="demand-sources">
      {sources.map((source) => (
        <li data-source={source.kind} data-connected={source.connected ? 'yes' : 'no'}>
          <strong>{sourceLabel(source.kind)}</strong>{' '}
          {source.connected ? (
            <>
              <span class="badge">Connected</span>{' '}
              <small class="muted">
                last sync {source.last_sync_at ? when(source.last_sync_at) : 'not yet'}
                {source.parts.length > 0 && ` · feeds ${source.parts.map(partLabel).join(', ')}`}
              </small>
            </>
          ) : (
            <a href={href(`/p/${slug}/connections`)}>Connect</a>
          )}
        </li>
      ))}
    </ul>
  );
}
