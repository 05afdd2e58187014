-- Leases carry their holder and a heartbeat (issue 35). A holder (an instance: a random id
-- minted when the process builds its state) refreshes `heartbeat_at` every 15 seconds while the
-- work runs; a lease whose heartbeat is 45 seconds old is dead whatever its expiry says, so after
-- a crash another instance (a restarted process is a new one) takes the work over within about
-- a minute instead of waiting out the expiry, which stays as the upper bound. A lease taken before
-- this migration has no heartbeat and lives until its expiry, as before.

-- Approved budget changes: the row lease's heartbeat, and the budget the change started from,
-- recorded at its first attempt (a retry that finds the target already set, because the earlier
-- write landed, still says what the budget was before).
ALTER TABLE budget_applications ADD COLUMN heartbeat_at BIGINT;
ALTER TABLE budget_applications ADD COLUMN before_cents BIGINT;

-- The job loop's leases.
ALTER TABLE job_leases ADD COLUMN heartbeat_at BIGINT;

-- Sync runs: who holds the run (`syncing_since` stays the run's start) and its heartbeat.
ALTER TABLE connections ADD COLUMN sync_owner TEXT;
ALTER TABLE connections ADD COLUMN sync_heartbeat_at BIGINT;
