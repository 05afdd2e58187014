// The product creation rules of the interface (name 1-120, slug 2-60 matching the pattern,
// domain at most 255, currency three letters), checked before the round trip so a mistake is
// named next to its field; the server checks again and has the last word (a taken slug).

export interface ProductInput {
  name: string;
  slug: string;
  domain: string;
  currency: string;
}

export type ProductErrors = Partial<Record<keyof ProductInput, string>>;

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]*[a-z0-9]$';
const slugPattern = new RegExp(SLUG_PATTERN);

export const LIMITS = { nameMax: 120, slugMin: 2, slugMax: 60, domainMax: 255 };

function chars(text: string): number {
  return [...text].length;
}

export function checkProduct(input: ProductInput): ProductErrors {
  const errors: ProductErrors = {};
  const name = input.name.trim();
  if (!name) errors.name = 'Give the product a name.';
  else if (chars(name) > LIMITS.nameMax) errors.name = `The name is at most ${LIMITS.nameMax} characters.`;

  const slug = input.slug.trim();
  if (chars(slug) < LIMITS.slugMin || chars(slug) > LIMITS.slugMax) {
    errors.slug = `The slug needs ${LIMITS.slugMin} to ${LIMITS.slugMax} characters.`;
  } else if (!slugPattern.test(slug)) {
    errors.slug = 'Use only lowercase letters, digits and hyphens, starting and ending with a letter or digit.';
  }

  if (chars(input.domain.trim()) > LIMITS.domainMax) {
    errors.domain = `The domain is at most ${LIMITS.domainMax} characters.`;
  }

  if (!/^[A-Za-z]{3}$/.test(input.currency.trim())) {
    errors.currency = 'The currency is a three-letter code, such as USD or EUR.';
  }
  return errors;
}

/** A slug from a name: "Pixel Pantry!" -> "pixel-pantry"; may be empty for names of symbols. */
export function suggestSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, LIMITS.slugMax)
    .replace(/^-+|-+$/g, '');
}
