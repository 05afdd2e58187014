// Creating a product: the slug follows the name until it is edited by hand, each rule is named
// next to its field before anything is sent, and a refusal (a taken slug) shows in place.

import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { navigate } from '../../router';
import { Field } from '../../ui/field';
import { ErrorNote } from '../../ui/states';
import type { ProductErrors, ProductInput } from './product-rules';
import { checkProduct, LIMITS, SLUG_PATTERN, suggestSlug } from './product-rules';

interface CreatedProduct {
  id: string;
  slug: string;
  name: string;
  currency: string;
  stage: string;
}

const EMPTY: ProductInput = { name: '', slug: '', domain: '', currency: 'USD' };

export function CreateProductForm({ onCreated }: { onCreated?: (product: CreatedProduct) => void }) {
  const [input, setInput] = useState<ProductInput>(EMPTY);
  const [slugEdited, setSlugEdited] = useState(false);
  /** Fields whose mistakes are shown: after leaving them, and all of them after a submit. */
  const [shown, setShown] = useState<Set<keyof ProductInput>>(new Set());
  const [serverError, setServerError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const errors: ProductErrors = checkProduct(input);
  if (serverError?.status === 409 && !errors.slug) errors.slug = `${serverError.message}: another product already uses this slug.`;
  const visible = (field: keyof ProductInput) => (shown.has(field) ? errors[field] : undefined);

  const change = (field: keyof ProductInput) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    setServerError(null);
    setInput((current) => {
      const next = { ...current, [field]: value };
      if (field === 'name' && !slugEdited) next.slug = suggestSlug(value);
      return next;
    });
    if (field === 'slug') setSlugEdited(value !== '');
  };
  const leave = (field: keyof ProductInput) => () => setShown((current) => new Set(current).add(field));

  const submit = async (event: Event) => {
    event.preventDefault();
    setShown(new Set<keyof ProductInput>(['name', 'slug', 'domain', 'currency']));
    if (Object.keys(checkProduct(input)).length > 0) return;
    setBusy(true);
    setServerError(null);
    try {
      const body: Record<string, string> = {
        name: input.name.trim(),
        slug: input.slug.trim(),
        currency: input.currency.trim().toUpperCase(),
      };
      if (input.domain.trim()) body.domain = input.domain.trim();
      const created = await api.post<CreatedProduct>('/products', body);
      onCreated?.(created);
      navigate(`/p/${created.slug}`);
    } catch (failure) {
      setServerError(failure instanceof ApiError ? failure : new ApiError(0, String(failure), null));
    } finally {
      setBusy(false);
    }
  };

  const invalid = (field: keyof ProductInput) => (visible(field) ? 'true' : undefined);

  return (
    <form onSubmit={submit} noValidate class="create-product" aria-label="New product">
      <div class="grid">
        <Field
          label="Name"
          name="name"
          value={input.name}
          onInput={change('name')}
          onBlur={leave('name')}
          required
          maxLength={LIMITS.nameMax}
          aria-invalid={invalid('name')}
          hint={visible('name') ?? 'What you call it, up to 120 characters.'}
          autoComplete="off"
        />
        <Field
          label="Slug"
          name="slug"
          value={input.slug}
          onInput={change('slug')}
          onBlur={leave('slug')}
          required
          minLength={LIMITS.slugMin}
          maxLength={LIMITS.slugMax}
          pattern={SLUG_PATTERN}
          aria-invalid={invalid('slug')}
          hint={visible('slug') ?? 'In addresses and reports; it cannot change later.'}
          autoComplete="off"
          spellcheck={false}
        />
      </div>
      <div class="grid">
        <Field
          label="Domain (optional)"
          name="domain"
          value={input.domain}
          onInput={change('domain')}
          onBlur={leave('domain')}
          maxLength={LIMITS.domainMax}
          placeholder="example.com"
          aria-invalid={invalid('domain')}
          hint={visible('domain') ?? 'Visits from your own domain are not counted as referrals.'}
          autoComplete="off"
        />
        <Field
          label="Currency"
          name="currency"
          value={input.currency}
          onInput={change('currency')}
          onBlur={leave('currency')}
          required
          minLength={3}
          maxLength={3}
          pattern="[A-Za-z]{3}"
          aria-invalid={invalid('currency')}
          hint={visible('currency') ?? 'All money of this product is in this currency.'}
          autoComplete="off"
        />
      </div>
      {serverError && serverError.status !== 409 && <ErrorNote error={serverError} />}
      <button type="submit" aria-busy={busy} disabled={busy}>
        Create product
      </button>
    </form>
  );
}
