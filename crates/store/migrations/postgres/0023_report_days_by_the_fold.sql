-- The daily report tables of migration 0020 are kept by the ingest fold itself from now on, not
-- by triggers (issue 20, part 4).
--
-- The triggers fired on every statement that touched a daily identity row, a profile or a
-- revenue row, and probed the identities each statement named once per statement: PostgreSQL's
-- sustained ingestion fell from 11,250 to 6,105 events/s and SQLite's (row-level triggers, a
-- 500-row profile upsert taking over a second) by more than 90% (BENCHMARKS.md, 2026-11-27).
-- The fold now takes each identity's contribution to the daily tables out before its first
-- statement that changes the identity's rows, and puts it back once, after the last
-- (`store/src/ingest/report_days.rs`): two set-based statements per table per fold, whichever
-- path changed the identity. The tables hold the same sums as before, so nothing is refilled.
DROP TRIGGER stage_identity_days_keys ON stage_identity_days;
DROP TRIGGER identity_profiles_keys ON identity_profiles;
DROP TRIGGER stage_identity_days_inserted ON stage_identity_days;
DROP TRIGGER stage_identity_days_updated ON stage_identity_days;
DROP TRIGGER stage_identity_days_deleted ON stage_identity_days;
DROP TRIGGER transactions_inserted ON transactions;
DROP TRIGGER transactions_updated ON transactions;
DROP TRIGGER transactions_deleted ON transactions;
DROP TRIGGER identity_profiles_inserted ON identity_profiles;
DROP TRIGGER identity_profiles_updated ON identity_profiles;
DROP TRIGGER identity_profiles_deleted ON identity_profiles;

DROP FUNCTION payback_refuse_key_update();
DROP FUNCTION stage_identity_days_inserted();
DROP FUNCTION stage_identity_days_updated();
DROP FUNCTION stage_identity_days_deleted();
DROP FUNCTION transactions_changed();
DROP FUNCTION identity_profiles_changed();
DROP FUNCTION stage_channel_days_add(TEXT[], TEXT[], TEXT[], TEXT[], BIGINT[], BIGINT[], BIGINT[], BIGINT[], BIGINT[]);
DROP FUNCTION revenue_days_add(TEXT[], TEXT[], TEXT[], TEXT[], BIGINT[], BIGINT[]);
DROP FUNCTION identity_channels_moved(TEXT[], TEXT[], TEXT[], TEXT[]);
DROP FUNCTION identity_days_add(TEXT[], TEXT[], TEXT[], TEXT[], BIGINT[], BIGINT[]);
