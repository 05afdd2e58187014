// Reads a submitted form: text fields trimmed (a stray space in an email is a typo), password
// fields exactly as typed (spaces can be part of a password).

export function readForm(event: Event): Record<string, string> {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const values: Record<string, string> = {};
  for (const [key, value] of new FormData(form).entries()) {
    const field = form.elements.namedItem(key);
    const isPassword = field instanceof HTMLInputElement && field.type === 'password';
    values[key] = isPassword ? String(value) : String(value).trim();
  }
  return values;
}
