-- Connections to sources, their encrypted credentials, and the state of their sync runs.

-- A credential is sealed with XChaCha20-Poly1305 under PAYBACK_SECRET_KEY: only the nonce and
-- the ciphertext are stored, never the secret. Several connections may share one.
CREATE TABLE credentials (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    nonce       BYTEA NOT NULL,
    ciphertext  BYTEA NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX credentials_by_account ON credentials(account_id);

-- One connection per product and kind. `config` holds only what may be shown (redacted).
-- `syncing_since` is the lease of a running sync: an instance takes a connection with a
-- conditional update, and a stamp older than 15 minutes counts as dead.
CREATE TABLE connections (
    id                    TEXT PRIMARY KEY,
    account_id            TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    product_id            TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    kind                  TEXT NOT NULL,
    status                TEXT NOT NULL,
    config                TEXT NOT NULL,
    credential_id         TEXT REFERENCES credentials(id) ON DELETE SET NULL,
    backfill_days         BIGINT NOT NULL DEFAULT 0,
    last_sync_at          BIGINT,
    last_error            TEXT,
    consecutive_failures  BIGINT NOT NULL DEFAULT 0,
    next_sync_at          BIGINT,
    syncing_since         BIGINT,
    sync_phase            TEXT,
    created_at            BIGINT NOT NULL,
    UNIQUE (product_id, kind)
);
CREATE INDEX connections_by_account ON connections(account_id, created_at);
-- The sync job looks for due connections across accounts.
CREATE INDEX connections_due ON connections(status, next_sync_at);
