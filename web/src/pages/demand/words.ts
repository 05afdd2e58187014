// How the demand page writes its figures and names its sources. Source names come from the
// generated kind table, so this page names no kind itself (crates/web/tests/kind_modules.rs).

import { KINDS } from '../../generated/kinds';

/** A source kind's label as people call it; the wire word when the table does not know it. */
export function sourceLabel(kind: string): string {
  return KINDS[kind]?.label ?? kind;
}

/** What each report part is called where the sources list says what a source feeds. */
const PART_WORDS: Record<string, string> = {
  queries: 'search queries',
  trend: 'daily trend',
  ranks: 'keyword ranks',
  authority: 'authority',
  ai_visibility: 'AI visibility',
  gaps: 'keyword gaps',
};

export function partLabel(part: string): string {
  return PART_WORDS[part] ?? part;
}

/** A search position or rank to one decimal (1 is the top); null reads "—". */
export function position(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(1);
}

/** A 0-100 score to one decimal; null reads "—". */
export function score(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(1);
}
