// The properties the search-engine grant (or Payback's service account) reaches for
// `analytics_a` (`options.analytics_a_properties`) as choices of the grant's picker.

import type { ChoiceItem } from '../../grant-connect';

/** One property as `GET /connect/searchco/status` lists it. */
export interface AnalyticsProperty {
  /** The numeric id (`properties/{id}` in Google's names). */
  property_id: string;
  display_name: string;
  /** The display name of the Analytics account it belongs to. */
  account: string;
}

/** The grant's properties as choices: every one may be chosen. */
export function propertyChoices(options: unknown): ChoiceItem[] {
  const properties = Array.isArray(options) ? (options as AnalyticsProperty[]) : [];
  return properties.map((property) => ({
    id: property.property_id,
    label: `${property.display_name} (${property.property_id})`,
    facts: `account ${property.account}`,
    why: null,
  }));
}
