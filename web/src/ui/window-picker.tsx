// The report window (`?days=`), kept in the address so a reload or a shared link shows the same
// numbers. Every report page uses this one picker.

import { setQuery } from '../router';

const CHOICES = [7, 14, 30, 90, 180, 365];
export const DEFAULT_DAYS = 30;

/** `days` from the query when it is a whole number in 1-`max` (what the endpoint takes), else 30. */
export function readDays(query: URLSearchParams, max = 365): number {
  const days = Number(query.get('days'));
  return Number.isInteger(days) && days >= 1 && days <= max ? days : DEFAULT_DAYS;
}

export function WindowPicker({ days }: { days: number }) {
  // A window typed into the address (say 45 days) stays selectable rather than snapping away.
  const choices = CHOICES.includes(days) ? CHOICES : [...CHOICES, days].sort((a, b) => a - b);
  return (
    <label class="window-picker">
      Window
      <select
        aria-label="Window"
        name="days"
        value={String(days)}
        onChange={(event) => {
          const value = (event.currentTarget as HTMLSelectElement).value;
          setQuery({ days: value === String(DEFAULT_DAYS) ? null : value });
        }}
      >
        {choices.map((choice) => (
          <option value={String(choice)}>Last {choice} days</option>
        ))}
      </select>
    </label>
  );
}

/** The UTC days of a window ending today, oldest first, as `YYYY-MM-DD`. */
export function windowDays(days: number, now = Date.now()): string[] {
  const date = new Date(now);
  const today = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const out: string[] = [];
  for (let back = days - 1; back >= 0; back -= 1) {
    out.push(new Date(today - back * 86_400_000).toISOString().slice(0, 10));
  }
  return out;
}
