// `GET /products/{slug}/demand` (the fields as crates/server/src/services/demand.rs answers
// them: `DemandReport` and its parts).

export interface DemandReport {
  product_slug: string;
  window_days: number;
  funnel: DemandFunnel;
  /** One row per UTC day of the window, zero-filled, oldest first. */
  trend: DemandDay[];
  /** Most clicked first, at most 100. */
  queries: SearchQuery[];
  /** Each SEO source's latest reading, best position first, at most 100. */
  ranks: KeywordRank[];
  /** Keywords a competitor ranks better for, unranked first, then the widest gaps; at most 100. */
  gaps: KeywordGap[];
  ai_visibility: AiVisibility;
  authority: Authority;
  /** One per kind that feeds the report, in the kind table's order, connected or not. */
  sources: DemandSource[];
}

export interface DemandFunnel {
  impressions: number;
  clicks: number;
  visits: number;
  leads: number;
  customers: number;
}

export interface DemandDay {
  /** `YYYY-MM-DD`. */
  day: string;
  search_clicks: number;
  search_impressions: number;
  /** 0-100; null without a measurement that day. */
  ai_visibility: number | null;
}

export interface SearchQuery {
  query: string;
  clicks: number;
  impressions: number;
  /** Impression-weighted average position; null when the engine gave none. */
  position: number | null;
  /** The source kind's wire word. */
  source: string;
}

export interface KeywordRank {
  keyword: string;
  position: number;
  /** The source kind's wire word. */
  source: string;
  volume: number | null;
  url: string | null;
  /** `YYYY-MM-DD`. */
  as_of: string;
}

export interface AiVisibility {
  score: number | null;
  engines: EngineVisibility[];
  site_health: number | null;
}

export interface EngineVisibility {
  engine: string;
  visibility: number;
  /** `YYYY-MM-DD`. */
  as_of: string;
}

export interface Authority {
  domain_rating: number | null;
  backlinks: number | null;
  referring_domains: number | null;
  rank: number | null;
  organic_keywords: number | null;
  organic_traffic: number | null;
}

/** A report part a source feeds. */
export type DemandPart = 'queries' | 'trend' | 'ranks' | 'authority' | 'ai_visibility' | 'gaps';

export interface DemandSource {
  /** The kind's wire word. */
  kind: string;
  connected: boolean;
  /** RFC 3339; null before a run or when not connected. */
  last_sync_at: string | null;
  /** Empty when not connected. */
  parts: string[];
}

/** A keyword a competitor ranks better for, at the source's latest reading. */
export interface KeywordGap {
  keyword: string;
  /** The product's position that day; null when it ranks nowhere the source checks. */
  position: number | null;
  competitor: string;
  competitor_position: number;
  source: string;
  volume: number | null;
  /** `YYYY-MM-DD`. */
  as_of: string;
}
