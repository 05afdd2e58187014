// POST /auth/me keeps the session on a 401: here it only means "current password is wrong", and
// dropping the session for a typo would throw the person out mid-edit.

import { api } from '../../api';
import type { Account } from '../../types';

export interface ProfileEdit {
  name?: string | null;
  current_password?: string;
  new_password?: string;
}

export function updateProfile(edit: ProfileEdit): Promise<Account> {
  return api.post<Account>('/auth/me', edit, { keepSessionOn401: true });
}
