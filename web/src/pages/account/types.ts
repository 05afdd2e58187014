// Shapes only the account pages use, as /openapi.json gives them.

import type { Account, MemberRole, Workspace } from '../../types';

export type MemberStatus = 'active' | 'invited' | 'disabled';

export interface TeamMember {
  /** The person's id (the same person has this id in every workspace). */
  id: string;
  email: string;
  name: string | null;
  member_role: MemberRole;
  status: MemberStatus;
  created_at: string;
  last_seen_at: string | null;
}

export interface Invitation {
  ok: boolean;
  user_id: string;
  invite_url: string;
  expires_in_hours: number;
  /** The email already had a Payback login; they keep its password. */
  already_registered: boolean;
}

export interface InviteInfo {
  email: string;
  account_name: string;
  /** True when the invitee has no password yet and must choose one to accept. */
  needs_password: boolean;
}

export interface ClaimInfo {
  email: string;
  account_name: string;
  /** The account's live keys: the ones the assistant holds, shown before the claim. */
  api_keys: ApiKeyItem[];
}

export interface ApiKeyItem {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  /** Who created the key (through a session or another key of theirs); null when no person
   * did: an agent's sign-up key, or a key minted by one. */
  created_by: KeyCreator | null;
}

export interface KeyCreator {
  /** The person's id, as in the team list. */
  id: string;
  email: string;
}

export interface CreatedKey {
  id: string;
  name: string;
  /** The full key: the only time the server ever shows it. */
  key: string;
}

export interface WorkspaceSwitch {
  account: Account;
  accounts: Workspace[];
}

/** The limits the server enforces on passwords (signup, accept-invite, claim, profile). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
export const PASSWORD_HINT = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`;
