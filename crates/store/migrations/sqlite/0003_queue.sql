-- The approval queue, the policy engine's settings, leased jobs and the distribution log.

-- Cards of the approval queue. `status` is what was last written; reads derive the effective
-- status from `expires_at` and `snoozed_until` (jobs persist the same transitions later).
-- `dedupe_key` names the condition a job raised the card for, so one condition raises one card.
CREATE TABLE cards (
    id             TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    product_id     TEXT REFERENCES products(id) ON DELETE CASCADE,
    product_slug   TEXT,
    card_type      TEXT NOT NULL,
    headline       TEXT NOT NULL,
    metric_line    TEXT NOT NULL,
    detail         TEXT,
    proposed_by    TEXT NOT NULL,
    action_spec    TEXT,
    status         TEXT NOT NULL,
    dedupe_key     TEXT,
    created_at     BIGINT NOT NULL,
    expires_at     BIGINT,
    snoozed_until  BIGINT,
    resolved_at    BIGINT,
    resolved_by    TEXT,
    resolved_via   TEXT,
    execution      TEXT,
    UNIQUE (account_id, dedupe_key)
);
CREATE INDEX cards_by_account ON cards(account_id, status, created_at);
CREATE INDEX cards_by_product ON cards(product_id, status);
-- Jobs sweep open cards by time across accounts.
CREATE INDEX cards_open_by_expiry ON cards(status, expires_at);

-- A product's policy: daily caps per network (NULL: no cap) and network walls.
CREATE TABLE product_policies (
    product_id        TEXT PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
    google_cap_cents  BIGINT,
    meta_cap_cents    BIGINT,
    adult_adjacent    BOOLEAN NOT NULL DEFAULT FALSE,
    blocked_networks  TEXT NOT NULL DEFAULT '[]',
    updated_at        BIGINT NOT NULL
);

-- The account-wide ceiling on the sum of daily budgets, in one currency.
CREATE TABLE account_policies (
    account_id               TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    portfolio_ceiling_cents  BIGINT,
    ceiling_currency         TEXT NOT NULL DEFAULT 'USD',
    updated_at               BIGINT NOT NULL
);

-- The daily budget humans approved per product and network (the latest approval wins),
-- whether or not a connector applied it: the ceiling counts what was approved.
CREATE TABLE spend_budgets (
    product_id   TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    network      TEXT NOT NULL,
    daily_cents  BIGINT NOT NULL,
    card_id      TEXT NOT NULL,
    applied      BOOLEAN NOT NULL,
    set_at       BIGINT NOT NULL,
    PRIMARY KEY (product_id, network)
);

-- One row per job kind: when it is next due and who holds its lease. A runner claims a job with
-- one conditional UPDATE, so many instances on one database never run it at once.
CREATE TABLE job_leases (
    job                   TEXT PRIMARY KEY,
    next_run_at           BIGINT NOT NULL,
    lease_owner           TEXT,
    lease_until           BIGINT,
    last_started_at       BIGINT,
    last_finished_at      BIGINT,
    last_ok_at            BIGINT,
    consecutive_failures  BIGINT NOT NULL DEFAULT 0,
    last_error            TEXT
);

-- Every run; (job, due_at) is unique, a second guard that one scheduled run happens once.
CREATE TABLE job_runs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    job          TEXT NOT NULL,
    due_at       BIGINT NOT NULL,
    runner       TEXT NOT NULL,
    started_at   BIGINT NOT NULL,
    finished_at  BIGINT,
    ok           BOOLEAN,
    detail       TEXT,
    UNIQUE (job, due_at)
);

-- Outreach the founder did (posts, newsletters, communities), joined back to traffic by
-- utm_campaign.
CREATE TABLE distribution_entries (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    product_id    TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    channel       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    url           TEXT,
    utm_campaign  TEXT,
    note          TEXT,
    created_by    TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX distribution_by_product ON distribution_entries(product_id, created_at);

-- The campaign an event arrived with, so distribution entries join traffic through an index.
ALTER TABLE events ADD COLUMN utm_campaign TEXT;
UPDATE events SET utm_campaign = json_extract(attribution, '$.utm_campaign') WHERE attribution IS NOT NULL;
-- Partial: only events that carry a campaign pay for this index on the ingest path.
CREATE INDEX events_by_campaign ON events(product_id, utm_campaign) WHERE utm_campaign IS NOT NULL;

-- One live write key per product, held by the database: two first reads of a product's key at
-- once must agree on one key rather than the second revoking the first. Older duplicates a race
-- may have left are revoked first (the newest stays live).
UPDATE tracking_keys SET revoked_at = created_at WHERE revoked_at IS NULL AND EXISTS (
    SELECT 1 FROM tracking_keys newer WHERE newer.product_id = tracking_keys.product_id
    AND newer.revoked_at IS NULL AND (newer.created_at > tracking_keys.created_at
    OR (newer.created_at = tracking_keys.created_at AND newer.key > tracking_keys.key)));
CREATE UNIQUE INDEX tracking_keys_one_live ON tracking_keys(product_id) WHERE revoked_at IS NULL;

-- The window's distinct identities (attribution coverage) read from the index alone.
DROP INDEX stage_identity_days_by_day;
CREATE INDEX stage_identity_days_by_day ON stage_identity_days(product_id, day, identity);
