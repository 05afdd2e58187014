// `GET /products/{slug}/health-report` (docs/health-and-growth.md).

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface HealthCheck {
  id: string;
  category: string;
  label: string;
  status: CheckStatus;
  /** The one metric line behind the status. */
  evidence: string;
  /** What fixes it: null only when passing; a setup step for a skip. */
  action: string | null;
}

export interface HealthCategory {
  key: string;
  label: string;
  /** Null until the product has data, or when every check of the category skipped. */
  score: number | null;
  checks: HealthCheck[];
}

export interface HealthReport {
  product_slug: string;
  generated_at: string;
  window_days: number;
  score: number | null;
  grade: string | null;
  categories: HealthCategory[];
}
