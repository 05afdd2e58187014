// The URL suffix endpoints' shapes as the API answers them (see /openapi.json, tag
// "connections").

/** `GET /products/{slug}/connections/search-ads/url-suffix`. */
export interface UrlSuffixReport {
  connected: boolean;
  customer_id: string | null;
  /** The account-level suffix as Google has it; null when none is set or it could not be read. */
  final_url_suffix: string | null;
  auto_tagging_enabled: boolean | null;
  complete: boolean;
  missing: string[];
  proposed_suffix: string;
  recommended_suffix: string;
  deployed_at: string | null;
  /** Why a live read was impossible; null when it succeeded. */
  read_error: string | null;
}

/** `POST /products/{slug}/connections/search-ads/url-suffix`. */
export interface UrlSuffixWritten {
  ok: boolean;
  suffix: string;
  added: string[];
  already_complete: boolean;
}
