// An event map as the editor holds it: every field a string (empty means "not set"), repeated
// parts as rows, so inputs can be half-typed. `toMap` turns a draft back into the API's shape;
// what is left empty is left out, except the required names, which are sent as typed so the
// server's refusal names the field (`event_maps[1].timestamp: must not be empty`).

import type { FunnelStage } from '../funnel/types';
import { REVENUE_STAGES } from './database-types';
import type { Condition, EventMap, FilterOp, FilterValue, MoneyUnit } from './database-types';

export interface AttributionDraft {
  field: string;
  column: string;
}

export interface ConditionDraft {
  column: string;
  op: FilterOp;
  /** As typed: see `parseValue`. */
  value: string;
}

export interface MapDraft {
  /** Stable across edits, for rendering lists; never sent. */
  key: number;
  table: string;
  schema: string;
  stage: FunnelStage;
  name: string;
  timestamp: string;
  dedupe_key: string;
  user_id: string;
  anonymous_id: string;
  email: string;
  attribution: AttributionDraft[];
  revenue: { column: string; unit: MoneyUnit; currency: string };
  filter: ConditionDraft[];
}

let nextKey = 1;

export function emptyDraft(): MapDraft {
  return {
    key: nextKey++,
    table: '',
    schema: '',
    stage: 'signup',
    name: '',
    timestamp: '',
    dedupe_key: '',
    user_id: '',
    anonymous_id: '',
    email: '',
    attribution: [],
    revenue: { column: '', unit: 'cents', currency: '' },
    filter: [],
  };
}

export function toDraft(map: EventMap): MapDraft {
  return {
    ...emptyDraft(),
    table: map.table,
    schema: map.schema ?? '',
    stage: map.stage as FunnelStage,
    name: map.name ?? '',
    timestamp: map.timestamp,
    dedupe_key: map.dedupe_key,
    user_id: map.user_id ?? '',
    anonymous_id: map.anonymous_id ?? '',
    email: map.email ?? '',
    attribution: Object.entries(map.attribution ?? {}).map(([field, column]) => ({ field, column })),
    revenue: {
      column: map.revenue?.column ?? '',
      unit: map.revenue?.unit ?? 'cents',
      currency: map.revenue?.currency ?? '',
    },
    filter: (map.filter ?? []).map((c) => ({ column: c.column, op: c.op, value: valueText(c.value) })),
  };
}

/** Whether a map of `stage` may carry revenue. */
export function carriesRevenue(stage: string): boolean {
  return (REVENUE_STAGES as readonly string[]).includes(stage);
}

export function takesValue(op: FilterOp): boolean {
  return op !== 'is_null' && op !== 'not_null';
}

export function takesList(op: FilterOp): boolean {
  return op === 'in' || op === 'not_in';
}

export function toMap(draft: MapDraft): EventMap {
  const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());
  const map: EventMap = {
    table: draft.table.trim(),
    schema: optional(draft.schema),
    stage: draft.stage,
    name: optional(draft.name),
    timestamp: draft.timestamp.trim(),
    dedupe_key: draft.dedupe_key.trim(),
    user_id: optional(draft.user_id),
    anonymous_id: optional(draft.anonymous_id),
    email: optional(draft.email),
  };
  const attribution = draft.attribution.filter((row) => row.column.trim() !== '');
  if (attribution.length) {
    map.attribution = Object.fromEntries(attribution.map((row) => [row.field, row.column.trim()]));
  }
  if (carriesRevenue(draft.stage) && draft.revenue.column.trim() !== '') {
    map.revenue = {
      column: draft.revenue.column.trim(),
      unit: draft.revenue.unit,
      currency: optional(draft.revenue.currency),
    };
  }
  if (draft.filter.length) map.filter = draft.filter.map(toCondition);
  // Undefined keys are dropped by JSON.stringify; drop them here too so drafts compare equal.
  for (const key of Object.keys(map) as (keyof EventMap)[]) if (map[key] === undefined) delete map[key];
  return map;
}

function toCondition(draft: ConditionDraft): Condition {
  const condition: Condition = { column: draft.column.trim(), op: draft.op };
  if (takesList(draft.op)) {
    condition.value = draft.value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map(parseValue);
  } else if (takesValue(draft.op)) {
    condition.value = parseValue(draft.value.trim());
  }
  return condition;
}

/**
 * A typed value: `true`/`false` are booleans, plain numbers are numbers (integers only while
 * exact), `"quoted"` text is text even when it looks like a number, anything else is text.
 */
export function parseValue(text: string): FilterValue {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+$/.test(text)) {
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : text;
  }
  if (/^-?\d+\.\d+$/.test(text) && String(Number(text)) === text) return Number(text);
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // Not valid JSON text: keep the quotes as typed.
    }
  }
  return text;
}

/** The inverse of `parseValue`, for editing a stored condition. */
export function valueText(value: Condition['value']): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(scalarText).join(', ');
  return scalarText(value);
}

function scalarText(value: FilterValue): string {
  if (typeof value !== 'string') return String(value);
  // Text that would read back as a number, a boolean or a list is quoted.
  return parseValue(value) === value && !value.includes(',') ? value : JSON.stringify(value);
}

/** The maps as the server would store them, to tell whether the editor holds unsaved changes. */
export function sameMaps(drafts: MapDraft[], saved: EventMap[]): boolean {
  return JSON.stringify(drafts.map(toMap)) === JSON.stringify(saved.map(normalized));
}

function normalized(map: EventMap): EventMap {
  return toMap(toDraft(map));
}

/** `orders → payment`, the words a map goes by in lists and buttons. */
export function mapTitle(map: { table: string; schema?: string; stage: string }): string {
  const table = map.schema ? `${map.schema}.${map.table}` : map.table;
  return `${table || 'new map'} → ${map.stage}`;
}

/** Whether two maps read the same table into the same stage (the server refuses the pair). */
export function sameTarget(a: EventMap, b: EventMap): boolean {
  return a.table === b.table && (a.schema ?? '') === (b.schema ?? '') && a.stage === b.stage;
}
