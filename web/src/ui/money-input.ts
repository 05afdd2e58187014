// People type money in currency units ("120", "120.50", "1,049.00"); the API wants integer
// cents. The conversion is done on the digits, never through floats, so 0.29 stays 29 cents and
// what is saved is exactly what was typed.

/** "120.5" -> 12050; "" -> null (no value); anything else -> an explanation. */
export function parseCents(
  text: string,
  { positive = false }: { positive?: boolean } = {},
): { cents: number | null } | { problem: string } {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return { cents: null };
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(trimmed);
  if (!match) return { problem: `"${text}" is not an amount: write it like 120 or 120.50` };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return { problem: 'that amount is too large' };
  if (positive && cents <= 0) return { problem: 'An amount must be more than zero; leave it empty for none' };
  return { cents };
}

/** Cents as the plain number an input shows, e.g. 12050 -> "120.50", 12000 -> "120". */
export function centsToInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(cents);
  const fraction = whole % 100;
  const units = Math.floor(whole / 100);
  return fraction === 0 ? `${sign}${units}` : `${sign}${units}.${String(fraction).padStart(2, '0')}`;
}
