-- Applying an approved budget change on its ad network (issue 22). The row is written in the
-- approval's transaction, so a crash or a network error after the approval commits cannot lose
-- the change: a runner leases the row (any instance, the request itself first), asks the
-- network, and either finishes it or sets the next attempt with backoff. One row per card: a
-- change is applied at most once, and the network's writer reads the live budget first, so a
-- retry after a lost answer finds the target already set and records it as applied.
CREATE TABLE budget_applications (
    card_id          TEXT PRIMARY KEY REFERENCES cards (id),
    account_id       TEXT NOT NULL,
    product_id       TEXT NOT NULL,
    network          TEXT NOT NULL,
    campaign_id      TEXT,
    from_cents       BIGINT,
    to_cents         BIGINT NOT NULL,
    currency         TEXT NOT NULL,
    -- The actor and door of the approval, for the history line of the outcome.
    approved_by      TEXT NOT NULL,
    approved_via     TEXT NOT NULL,
    -- `applying` until a final state: `applied`, `refused`, `failed`, `not_applied`.
    state            TEXT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  BIGINT NOT NULL,
    lease_owner      TEXT,
    lease_until      BIGINT,
    last_error       TEXT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);

-- The job's scan: rows still applying whose next attempt has come.
CREATE INDEX budget_applications_due ON budget_applications (state, next_attempt_at);
