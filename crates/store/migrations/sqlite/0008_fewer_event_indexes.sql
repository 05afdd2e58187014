-- Every secondary index on raw events costs each ingested event a random B-tree insert (and,
-- on SQLite, a dirtied page written at commit): dropping this one made the raw insert of
-- 1,500-event transactions a third faster. Its one reader, "when did the product last see an
-- event", probes `events_by_stage` once per stage instead.
DROP INDEX events_by_time;
