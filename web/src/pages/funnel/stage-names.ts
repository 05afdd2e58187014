// Words for the canonical stages, and the built-in ladder the service uses until a product
// saves its own funnel definition (docs/numbers.md, "Funnel": visit, lead, signup, activated, converted).

import type { FunnelStage, FunnelStep } from './types';

const STAGE_LABELS: Record<FunnelStage, string> = {
  impression: 'Impressions',
  visit: 'Visits',
  engaged: 'Engaged',
  lead: 'Leads',
  qualified: 'Qualified',
  signup: 'Signups',
  activated: 'Activated',
  converted: 'Customers',
  payment: 'Payments',
  churned: 'Churned',
};

/** The label a step gets when the founder picks a stage without naming it. */
export function stageLabel(stage: FunnelStage): string {
  return STAGE_LABELS[stage];
}

/** Sent by "Reset to built-in": the service has no delete, so the ladder is saved as steps. */
export const BUILT_IN_LADDER: FunnelStep[] = (
  ['visit', 'lead', 'signup', 'activated', 'converted'] as const
).map((stage) => ({ stage, label: STAGE_LABELS[stage] }));

export function sameSteps(a: FunnelStep[], b: FunnelStep[]): boolean {
  return a.length === b.length && a.every((step, i) => step.stage === b[i].stage && step.label === b[i].label);
}

/** A channel as the reports name it; null is traffic sources report without a channel. */
export function channelName(channel: string | null): string {
  return channel ?? 'no channel';
}
