// Money typed by a person ("49", "49.5", "1,049.00") to integer cents and back, without float
// arithmetic, so what is saved is exactly what was typed.

/** Cents from `text`; null for an empty field; an Error naming the problem otherwise. */
export function parseCents(text: string, field: string): number | null | Error {
  const plain = text.trim().replace(/,/g, '');
  if (plain === '') return null;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return new Error(`${field}: enter an amount such as 49 or 49.90`);
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return new Error(`${field}: that amount is too large`);
  return cents;
}

/** Cents as the field shows them for editing, e.g. 4990 -> "49.90". */
export function centsText(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(cents);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}
