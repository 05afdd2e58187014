-- The connect flow of a grant (issue 22): `start` stores a single-use state for 15 minutes with
-- its PKCE verifier; the provider's callback exchanges the code, seals the refresh token as a
-- credential and stores the options it discovered; `select` turns the state into connections
-- once. The state token is the key: it travels through the human's browser, so it is random
-- and never reused.
CREATE TABLE grant_states (
    state          TEXT PRIMARY KEY,
    provider       TEXT NOT NULL,
    account_id     TEXT NOT NULL REFERENCES accounts (id),
    product_id     TEXT NOT NULL REFERENCES products (id),
    -- JSON array of the kinds the grant was asked for.
    kinds          TEXT NOT NULL,
    client         TEXT NOT NULL,
    -- Who started it, as history records them.
    started_by     TEXT NOT NULL,
    started_via    TEXT NOT NULL,
    pkce_verifier  TEXT NOT NULL,
    -- `pending`, `complete`, `error`.
    status         TEXT NOT NULL,
    error          TEXT,
    -- JSON: what the human may choose from (ad customers, ...), and what `select` activated.
    options        TEXT,
    results        TEXT,
    -- The sealed refresh token until a connection owns it; a disconnect deleting it clears this.
    credential_id  TEXT REFERENCES credentials (id) ON DELETE SET NULL,
    created_at     BIGINT NOT NULL,
    expires_at     BIGINT NOT NULL,
    -- The callback and `select` each happen once.
    callback_at    BIGINT,
    selected_at    BIGINT
);
