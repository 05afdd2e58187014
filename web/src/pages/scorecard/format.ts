// A scorecard cell in words, by its row's unit: counts, money from cents, percents (0-100) and
// ratios; null reads "—" (no denominator, source not connected, nothing typed).

import { count, money } from '../../format';
import type { Unit } from './types';

export function cellText(value: number | null, unit: Unit, currency: string): string {
  if (value === null || !Number.isFinite(value)) return '—';
  switch (unit) {
    case 'cents':
      return money(value, currency);
    case 'percent':
      return `${Number(value.toFixed(2))}%`;
    case 'ratio':
      return `${Number(value.toFixed(2))}x`;
    default:
      return Number.isInteger(value) ? count(value) : String(Number(value.toFixed(2)));
  }
}
