// `GET /products/{slug}/recordings`: playback pointers the replay sources sampled.

export interface Recording {
  provider: string;
  id: string;
  url: string;
  path: string | null;
  started_at: string;
  duration_s: number;
  signals: string[];
}

export interface RecordingsReport {
  window_days: number;
  recordings_url: string | null;
  sources: string[];
  recordings: Recording[];
}
