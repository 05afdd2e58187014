// A password input carrying the server's 10-200 limit, said in its hint.

import { Field } from '../../ui/field';
import { PASSWORD_HINT, PASSWORD_MAX, PASSWORD_MIN } from './types';

export function PasswordField({
  id,
  label = 'Password',
  name = 'password',
  autocomplete,
  hint = PASSWORD_HINT,
  enforceLength = true,
}: {
  id: string;
  label?: string;
  name?: string;
  autocomplete: 'current-password' | 'new-password';
  hint?: string | null;
  /** Off for "current password" fields: the server checks those against what is stored. */
  enforceLength?: boolean;
}) {
  return (
    <Field
      id={id}
      label={label}
      name={name}
      hint={hint}
      type="password"
      required
      autocomplete={autocomplete}
      minLength={enforceLength ? PASSWORD_MIN : undefined}
      maxLength={enforceLength ? PASSWORD_MAX : undefined}
    />
  );
}
