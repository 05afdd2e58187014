// The campaign filter endpoint's shape as the API answers it (see /openapi.json, tag
// "connections").

/** `POST /products/{slug}/connections/social-ads-a/campaign-filter`. */
export interface CampaignFilterSet {
  ok: boolean;
  campaign_name_prefixes: string[];
  /** Stored spend rows of campaigns the filter no longer takes, dropped at once. */
  dropped_rows: number;
}
