// The report window (`?days=`): 7, 30, 90 or 365 UTC days ending today. Kept in the address so
// a link or a reload shows the same window.

import { setQuery } from '../../router';

const CHOICES = [7, 30, 90, 365];
export const DEFAULT_DAYS = 30;

/** `days` from the query: an integer 1-3650 (what the API takes), else the default. */
export function daysFrom(query: URLSearchParams): number {
  const days = Number(query.get('days'));
  return Number.isInteger(days) && days >= 1 && days <= 3650 ? days : DEFAULT_DAYS;
}

export function WindowPicker({ days }: { days: number }) {
  const choices = CHOICES.includes(days) ? CHOICES : [...CHOICES, days].sort((a, b) => a - b);
  return (
    <div class="inline-select">
      <label for="report-window">Window</label>
      <select
        id="report-window"
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
    </div>
  );
}
