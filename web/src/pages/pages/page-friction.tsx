// A page's friction in its detail: the rage clicks, dead clicks and script errors the replay
// sources counted on its path over the window, and which sources counted them; or that none
// did. The sources are named by the kind table's labels (the API's `providers` are data here).

import { count } from '../../format';
import { kindName } from '../connections/words';
import type { Friction } from './types';

export function PageFriction({ friction, days }: { friction: Friction | null; days: number }) {
  return (
    <section aria-labelledby="friction-title">
      <h2 id="friction-title">Friction</h2>
      {friction === null ? (
        <p class="muted" data-friction="none">
          No session replay source counted this page in the last {days} days. Connect one on the Connections page to
          see where visitors rage-click, click on what does nothing, or hit script errors.
        </p>
      ) : (
        <>
          <dl class="landing-figures">
            <div>
              <dt>Rage clicks</dt>
              <dd data-figure="rage_clicks">{count(friction.rage_clicks)}</dd>
            </div>
            <div>
              <dt>Dead clicks</dt>
              <dd data-figure="dead_clicks">{count(friction.dead_clicks)}</dd>
            </div>
            <div>
              <dt>Script errors</dt>
              <dd data-figure="js_errors">{count(friction.js_errors)}</dd>
            </div>
          </dl>
          <p class="muted">
            Last {days} days, added up across {friction.providers.map(kindName).join(' and ') || 'the replay sources'}.
          </p>
        </>
      )}
    </section>
  );
}
