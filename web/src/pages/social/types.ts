// `GET /products/{slug}/social` (the fields as crates/server/src/services/social.rs answers
// them: `SocialReport` and its parts).

export interface SocialReport {
  product_slug: string;
  window_days: number;
  audience: Audience;
  /** One row per network with anything stored, in the order facebook, instagram, x. */
  networks: SocialNetworkRow[];
  /** One row per UTC day of the window, zero-filled, oldest first. */
  trend: SocialDay[];
  /** Most engaged first (ties newest first), at most 20. */
  posts: SocialPostView[];
}

export interface Audience {
  followers: number;
  followers_change: number;
  /** `YYYY-MM-DD` of the most recent count; null when none was read. */
  as_of: string | null;
  by_network: NetworkFollowers[];
}

export interface NetworkFollowers {
  network: string;
  followers: number;
  followers_change: number;
}

export interface SocialNetworkRow {
  network: string;
  followers: number;
  impressions: number;
  engagement: number;
  /** `engagement / impressions`; null without impressions. */
  engagement_rate: number | null;
}

export interface SocialDay {
  /** `YYYY-MM-DD`. */
  day: string;
  impressions: number;
  engagement: number;
  followers: number;
}

export interface SocialPostView {
  id: string;
  network: string;
  /** RFC 3339. */
  published_at: string;
  permalink: string | null;
  text: string | null;
  media_type: string | null;
  engagement: number;
}
