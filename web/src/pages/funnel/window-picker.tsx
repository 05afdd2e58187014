// The report window, kept in the URL (`?days=90`) so a reload or a shared link shows the same
// numbers. The funnel and conversions reports both take 1-365 days.

import { setQuery } from '../../router';

const CHOICES = [7, 14, 30, 90, 180, 365];
export const DEFAULT_DAYS = 30;

/** The `days` query parameter when it is a whole number in 1-365, else the default. */
export function readDays(query: URLSearchParams): number {
  const days = Number(query.get('days'));
  return Number.isInteger(days) && days >= 1 && days <= 365 ? days : DEFAULT_DAYS;
}

export function WindowPicker({ days }: { days: number }) {
  // A window typed into the URL (say 45 days) stays selectable rather than snapping away.
  const choices = CHOICES.includes(days) ? CHOICES : [...CHOICES, days].sort((a, b) => a - b);
  return (
    <label class="window-picker">
      Window
      <select
        aria-label="Window"
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
  const today = Date.UTC(
    new Date(now).getUTCFullYear(),
    new Date(now).getUTCMonth(),
    new Date(now).getUTCDate(),
  );
  const out: string[] = [];
  for (let back = days - 1; back >= 0; back -= 1) {
    out.push(new Date(today - back * 86_400_000).toISOString().slice(0, 10));
  }
  return out;
}
