// A page's friction in the list: rage clicks / dead clicks / script errors, or "—" when no
// replay source counted the path (not zeros: nothing was measured).

import { count } from '../../format';
import type { Friction } from './types';

export function FrictionCell({ friction }: { friction: Friction | null }) {
  if (!friction) {
    return (
      <span class="muted" title="No session replay source counted this page" data-friction="none">
        —
      </span>
    );
  }
  const { rage_clicks: rage, dead_clicks: dead, js_errors: errors } = friction;
  return (
    <span
      title={`${count(rage)} rage clicks, ${count(dead)} dead clicks, ${count(errors)} script errors`}
      data-friction={`${rage}/${dead}/${errors}`}
    >
      {count(rage)} / {count(dead)} / {count(errors)}
    </span>
  );
}
