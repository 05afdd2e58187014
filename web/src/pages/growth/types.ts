// `GET /products/{slug}/growth-actions` and `POST .../growth-actions/{id}/prompt` (spec "Growth
// actions and prompt result"; the fields as crates/server/src/services/growth answers them).

/** The coding agents a prompt can be shaped for. */
export type AgentTool = 'agent_a' | 'agent_b' | 'agent_c' | 'agent_d' | 'agent_e';

/** Where to read or act: an API endpoint, relative to the service. */
export interface ActionLink {
  label: string;
  method: 'GET' | 'POST';
  path: string;
}

export interface GrowthAction {
  /** `<kind>:<subject>`, stable while the situation stands. */
  id: string;
  /** 1 for the most pressing. */
  rank: number;
  /** e.g. `move_budget`, `connect_payments`. */
  kind: string;
  /** `tracking`, `funnel`, `advertising` or `sources`. */
  category: string;
  /** How bad the situation behind it is: `fail` or `warn`. */
  severity: string;
  headline: string;
  /** The numbers behind the action. */
  why: string;
  /** Revenue it may add over the window, in cents of the product's currency; null when not estimable. */
  estimated_impact_cents: number | null;
  check_id: string | null;
  links: ActionLink[];
  tool: AgentTool | null;
  prompt_path: string;
}

export interface GrowthActionList {
  product_slug: string;
  product_name: string;
  generated_at: string;
  window_days: number;
  /** Ranked, most pressing first. */
  actions: GrowthAction[];
}

export interface PromptResult {
  id: string;
  tool: AgentTool;
  /** Ready to paste into the coding agent. */
  prompt: string;
  headline: string;
  revenue_impact_cents: number | null;
  currency: string;
}
