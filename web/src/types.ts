// Shapes the whole app shares, as the API answers them (see /openapi.json). Types used by one
// page only live next to that page.

export type MemberRole = 'owner' | 'member';

export interface Account {
  id: string;
  email: string;
  role: 'customer' | 'operator';
  member_role?: MemberRole;
  name?: string | null;
  account_name?: string;
  verified: boolean;
  created_at: string;
  platform_admin?: boolean;
}

export interface Workspace {
  id: string;
  name: string;
  role: 'customer' | 'operator';
  member_role: MemberRole;
}

export interface LoginResponse {
  token: string;
  expires_at: string;
  account: Account;
  accounts?: Workspace[];
}

export type Stage = 'validation' | 'live' | 'killed';

export interface ProductRow {
  product_id: string;
  slug: string;
  name: string;
  stage: Stage;
  currency: string;
  domain?: string | null;
  gate_result: 'pass' | 'fail' | 'pivot' | null;
  gate_due_date: string | null;
  spend_7d_cents: number;
  spend_30d_cents: number;
  spend_prev_30d_cents: number;
  visits_30d: number;
  leads_30d: number;
  customers_30d: number;
  revenue_30d_cents: number;
  revenue_prev_30d_cents: number;
  cac_cents: number | null;
  ltv_cents: number | null;
  ltv_cac: number | null;
  pending_cards: number;
}

export type CardType = 'proposal' | 'insight' | 'alert' | 'gate_result' | 'policy_block';

export interface Card {
  id: string;
  product_slug: string | null;
  card_type: CardType;
  headline: string;
  metric_line: string;
  detail: string | null;
  proposed_by: 'keeper' | 'system';
  action_spec: Record<string, unknown> | null;
  status: string;
  created_at: string;
  expires_at: string | null;
  /** When a snoozed card returns; null unless snoozed. */
  snoozed_until: string | null;
}
