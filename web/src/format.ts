// Every number on screen goes through here: money from integer cents in the product's currency,
// counts, ratios and dates, so a figure reads the same on every page.

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
    } catch {
      // An ISO code the browser does not know still shows as "123.45 XYZ".
      format = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(code, format);
  }
  return format;
}

/** Integer cents in `currency`, e.g. 123456 USD -> "$1,234.56". Never does float sums. */
export function money(cents: number, currency: string): string {
  const format = moneyFormat(currency);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  // Currencies without minor units (JPY) still arrive in hundredths: keep the whole units.
  const units = cents / 100;
  const text = format.format(digits === 0 ? Math.round(units) : units);
  return format.resolvedOptions().style === 'currency' ? text : `${text} ${currency.toUpperCase()}`;
}

/** Money that may be null: CAC with no customers, LTV with no revenue. */
export function moneyOr(cents: number | null | undefined, currency: string, none: string): string {
  return cents === null || cents === undefined ? none : money(cents, currency);
}

const countFormat = new Intl.NumberFormat();

export function count(value: number): string {
  return countFormat.format(value);
}

/** A ratio such as LTV:CAC or ROAS, e.g. 3.2 -> "3.2x"; null reads as `none`. */
export function ratio(value: number | null | undefined, none = '—'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return none;
  return `${value.toFixed(value >= 10 ? 0 : 1)}x`;
}

/** A share in 0..1 as a percentage, e.g. 0.125 -> "12.5%". */
export function percent(share: number | null | undefined, none = '—'): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return none;
  return `${(share * 100).toFixed(share >= 0.1 || share === 0 ? 0 : 1)}%`;
}

/** Change against a previous window, e.g. (120, 100) -> "+20%"; nothing to compare reads "new". */
export function trend(current: number, previous: number): { text: string; direction: 'up' | 'down' | 'flat' } {
  if (previous === 0) {
    return current === 0 ? { text: '±0%', direction: 'flat' } : { text: 'new', direction: 'up' };
  }
  const change = (current - previous) / Math.abs(previous);
  const rounded = Math.round(change * 100);
  if (rounded === 0) return { text: '±0%', direction: 'flat' };
  return { text: `${rounded > 0 ? '+' : ''}${rounded}%`, direction: rounded > 0 ? 'up' : 'down' };
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A server timestamp in the viewer's time zone. */
export function when(timestamp: string | null | undefined, none = '—'): string {
  if (!timestamp) return none;
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : dateTimeFormat.format(date);
}

/** A `YYYY-MM-DD` day, shown without shifting it across time zones. */
export function day(value: string | null | undefined, none = '—'): string {
  if (!value) return none;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : dayFormat.format(date);
}

/** Hours until a timestamp, for card expiry: "in 5 h", "in 2 d", "expired". */
export function until(timestamp: string | null | undefined, now = Date.now()): string {
  if (!timestamp) return 'never';
  const hours = (new Date(timestamp).getTime() - now) / 3_600_000;
  if (!Number.isFinite(hours)) return timestamp;
  if (hours <= 0) return 'expired';
  if (hours < 48) return `in ${Math.ceil(hours)} h`;
  return `in ${Math.round(hours / 24)} d`;
}
