-- The daily report tables of migration 0020 are kept by the ingest fold itself from now on, not
-- by triggers (issue 20, part 4; the PostgreSQL migration of the same number says why).
DROP TRIGGER stage_identity_days_keys;
DROP TRIGGER identity_profiles_keys;
DROP TRIGGER stage_identity_days_inserted;
DROP TRIGGER stage_identity_days_updated;
DROP TRIGGER stage_identity_days_deleted;
DROP TRIGGER transactions_inserted;
DROP TRIGGER transactions_deleted;
DROP TRIGGER transactions_updated;
DROP TRIGGER identity_profiles_inserted;
DROP TRIGGER identity_profiles_deleted;
DROP TRIGGER identity_profiles_updated;
DROP TRIGGER identity_profiles_channel_moved;
DROP TRIGGER identity_profiles_channel_appeared;
DROP TRIGGER identity_profiles_channel_gone;
