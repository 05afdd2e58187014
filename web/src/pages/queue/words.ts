// The queue area's codes in plain words: networks, proposers, card types, policy refusals and
// history actions, so a person reads "Daily cap exceeded" rather than `daily_cap_exceeded`.

import type { Card } from '../../types';
import type { Network } from './types';

const networkNames: Record<string, string> = {
  google: 'Google Ads',
  meta: 'Meta Ads',
  linkedin: 'LinkedIn Ads',
};

export function networkName(network: string): string {
  return networkNames[network] ?? network;
}

export function proposerName(proposedBy: Card['proposed_by']): string {
  return proposedBy === 'keeper' ? 'AI agent' : 'System';
}

const cardTypeNames: Record<string, string> = {
  proposal: 'Spend proposal',
  insight: 'Insight',
  alert: 'Alert',
  gate_result: 'Gate review',
  policy_block: 'Policy block',
};

export function cardTypeName(type: string | null | undefined): string {
  if (!type) return '';
  return cardTypeNames[type] ?? type;
}

const policyCodeNames: Record<string, string> = {
  network_wall: 'Network wall: this product may not run on that network',
  daily_cap_exceeded: "Daily cap exceeded: the budget is over this product's cap",
  portfolio_ceiling_exceeded: "Portfolio ceiling exceeded: all approved budgets would pass the account's ceiling",
  portfolio_currency_mismatch: 'Currency mismatch: the portfolio ceiling is in another currency than this product',
};

export function policyCodeWords(code: string): string {
  return policyCodeNames[code] ?? code.replace(/_/g, ' ');
}

const actionNames: Record<string, string> = {
  'proposal.create': 'Proposed a spend change',
  'proposal.policy_block': 'Blocked a proposal by policy',
  'card.raise': 'Raised a card',
  'card.approve': 'Approved',
  'card.reject': 'Rejected',
  'card.snooze': 'Snoozed',
  'card.restore': 'Restored',
  'card.approve_refused': 'Refused an approval by policy',
  'card.expire': 'Expired',
  'card.unsnooze': 'Back from snooze',
  'spend.applied': 'Applied the spend change',
  'spend.not_applied': 'Spend change not applied',
  'spend.failed': 'Spend change failed',
  'policy.update': 'Changed product policy',
  'policy.portfolio_update': 'Changed the portfolio ceiling',
  'distribution.create': 'Logged distribution',
  'product.create': 'Created the product',
  'product.update': 'Updated the product',
  'product.gate_result': 'Recorded a gate verdict',
};

/** A history action in words, keeping the code visible for anything not listed. */
export function actionWords(action: string): string {
  return actionNames[action] ?? action;
}

export const networkOptions: { value: Network; label: string }[] = [
  { value: 'google', label: networkName('google') },
  { value: 'meta', label: networkName('meta') },
];
