-- Sign in with SSO (issue 42). `start` stores a state for 10 minutes with the nonce and PKCE
-- verifier it sent to the provider; the first callback naming it consumes it, whatever the
-- outcome. The state travels through the browser, so it is random and never reused.
CREATE TABLE sso_states (
    state          TEXT PRIMARY KEY,
    nonce          TEXT NOT NULL,
    pkce_verifier  TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    expires_at     BIGINT NOT NULL,
    consumed_at    BIGINT
);
CREATE INDEX sso_states_expiry ON sso_states (expires_at);

-- Who a provider's subject is: the key is the issuer and its `sub`, never the email (an address
-- can be recycled at the provider). A person holds at most one `sub` of each issuer.
CREATE TABLE sso_identities (
    issuer      TEXT NOT NULL,
    sub         TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The email the provider vouched for when the link was made (the person's own stays).
    email       TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (issuer, sub),
    UNIQUE (issuer, user_id)
);

-- The one-time ticket the callback hands the dashboard in its fragment: stored hashed, used
-- once, for 2 minutes; `complete` turns it into a session in the person's first workspace.
CREATE TABLE sso_tickets (
    ticket_hash  TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- This sign-in created the person and their account.
    is_new       BOOLEAN NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    used_at      BIGINT
);
CREATE INDEX sso_tickets_expiry ON sso_tickets (expires_at);
