// The billing summary as `GET /billing` answers it (spec: "Billing summary").

export type PlanKey = 'free' | 'indie' | 'growth';

export interface PlanFeatures {
  exports: boolean;
  sheets_sync: boolean;
  ai_insights: boolean;
  suggestions: boolean;
}

export interface PlanRow {
  key: PlanKey;
  name: string;
  features: PlanFeatures;
  limits: { history_days: number };
}

export interface ProductLine {
  slug: string;
  name: string;
  free_until: string;
  billable: boolean;
}

export interface BillingSummary {
  plan: PlanKey;
  stored_plan: PlanKey;
  plan_status: 'active' | 'trialing' | 'past_due' | 'canceled';
  trial_ends_at: string | null;
  trial_days_left: number | null;
  plan_period_end: string | null;
  billing_available: boolean;
  has_customer: boolean;
  subscribed: boolean;
  member_role: 'owner' | 'member';
  period: string;
  usage: { products: number };
  limits: { history_days: number };
  billable_products: number;
  quantity: number;
  product_lines: ProductLine[];
  features: PlanFeatures;
  plans: PlanRow[];
}

/** What checkout and the portal answer: the Stripe page to go to. */
export interface RedirectUrl {
  url: string;
}
