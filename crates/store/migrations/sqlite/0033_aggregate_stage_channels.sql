-- The channel of a source's daily stage volume (web analytics sessions per source/medium,
-- classified with the domain's channel rules), so the funnel's rows by channel carry them.
-- Rows written before have none: '' (the funnel reads it as no channel). The key gains the
-- channel, so one source's day and stage is one row per channel.
--
-- SQLite cannot change a primary key in place: the table is rebuilt with its rows.
CREATE TABLE aggregate_stage_days_rebuilt (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    stage       TEXT NOT NULL,
    source      TEXT NOT NULL,
    channel     TEXT NOT NULL DEFAULT '',
    volume      BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, stage, source, channel)
);
INSERT INTO aggregate_stage_days_rebuilt (product_id, day, stage, source, channel, volume)
    SELECT product_id, day, stage, source, '', volume FROM aggregate_stage_days;
DROP TABLE aggregate_stage_days;
ALTER TABLE aggregate_stage_days_rebuilt RENAME TO aggregate_stage_days;

-- Whether a source wrote a stage for a product at all (`aggregate_stages::counts_first_party`
-- probes it for every report): one index seek.
CREATE INDEX aggregate_stage_days_by_source ON aggregate_stage_days (product_id, source, stage);
