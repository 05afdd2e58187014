// People type budgets in currency units ("120" or "120.50"); the API wants integer cents. The
// conversion is done on the digits, never through floats, so 0.29 stays 29 cents.

/** "120.5" -> 12050; "" -> null (no value); anything else -> an explanation. */
export function parseCents(text: string): { cents: number | null } | { problem: string } {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return { cents: null };
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(trimmed);
  if (!match) return { problem: `"${text}" is not an amount: write it like 120 or 120.50` };
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  if (cents <= 0) return { problem: 'An amount must be more than zero; leave it empty for none' };
  return { cents };
}

/** Cents as the plain number an input shows, e.g. 12050 -> "120.50". */
export function centsToInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  const whole = Math.floor(cents / 100);
  const fraction = cents % 100;
  return fraction === 0 ? String(whole) : `${whole}.${String(fraction).padStart(2, '0')}`;
}
