-- The channel of a source's daily stage volume (web analytics sessions per source/medium,
-- classified with the domain's channel rules), so the funnel's rows by channel carry them.
-- Rows written before have none: '' (the funnel reads it as no channel). The key gains the
-- channel, so one source's day and stage is one row per channel.
ALTER TABLE aggregate_stage_days ADD COLUMN channel TEXT NOT NULL DEFAULT '';
ALTER TABLE aggregate_stage_days DROP CONSTRAINT aggregate_stage_days_pkey;
ALTER TABLE aggregate_stage_days ADD PRIMARY KEY (product_id, day, stage, source, channel);

-- Whether a source wrote a stage for a product at all (`aggregate_stages::counts_first_party`
-- probes it for every report): one index seek.
CREATE INDEX aggregate_stage_days_by_source ON aggregate_stage_days (product_id, source, stage);
