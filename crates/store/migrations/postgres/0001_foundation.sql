-- Foundation: accounts, people, memberships, credentials, products, history.
-- Portable conventions: ids TEXT (uuid v7), instants BIGINT epoch ms, JSON as TEXT.

CREATE TABLE accounts (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    role        TEXT NOT NULL DEFAULT 'customer',
    created_at  BIGINT NOT NULL
);

CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE,
    password_hash  TEXT,
    name           TEXT,
    verified       BOOLEAN NOT NULL DEFAULT FALSE,
    signup_meta    TEXT,
    created_at     BIGINT NOT NULL,
    last_seen_at   BIGINT
);

CREATE TABLE memberships (
    account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    member_role  TEXT NOT NULL,
    status       TEXT NOT NULL,
    accepted_at  BIGINT,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships(user_id);

CREATE TABLE sessions (
    token_hash    TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions(user_id, account_id);

CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    prefix        TEXT NOT NULL,
    key_hash      TEXT NOT NULL UNIQUE,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT,
    revoked_at    BIGINT
);
CREATE INDEX api_keys_by_account ON api_keys(account_id);

CREATE TABLE one_time_tokens (
    token_hash  TEXT PRIMARY KEY,
    purpose     TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    account_id  TEXT REFERENCES accounts(id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX one_time_tokens_by_user ON one_time_tokens(user_id, purpose);

CREATE TABLE products (
    id             TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    slug           TEXT NOT NULL,
    name           TEXT NOT NULL,
    currency       TEXT NOT NULL,
    domain         TEXT,
    stage          TEXT NOT NULL DEFAULT 'validation',
    gate_result    TEXT,
    gate_due_date  TEXT,
    onboarded_at   BIGINT,
    created_at     BIGINT NOT NULL,
    UNIQUE (account_id, slug)
);

CREATE TABLE history (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id     TEXT REFERENCES accounts(id) ON DELETE CASCADE,
    occurred_at    BIGINT NOT NULL,
    actor          TEXT NOT NULL,
    via            TEXT NOT NULL,
    action         TEXT NOT NULL,
    product_id     TEXT REFERENCES products(id) ON DELETE SET NULL,
    product_slug   TEXT,
    subject_ref    TEXT,
    card_headline  TEXT,
    card_type      TEXT,
    payload        TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX history_by_account ON history(account_id, occurred_at);
CREATE INDEX history_by_product ON history(product_id, occurred_at);

CREATE TABLE leads (
    id           TEXT PRIMARY KEY,
    email        TEXT NOT NULL,
    prompt_type  TEXT,
    meta         TEXT,
    created_at   BIGINT NOT NULL
);
