-- The tag manager connection's own state (`tagmgr`): what the last tag audit found in the
-- container's live version and what Payback last published there, which the tracking key info
-- shows as `gtm_deploy`. One row per connection, gone with it; `container_path` says which
-- container the row speaks of, so a connection moved to another container shows nothing of the
-- old one. Kept apart from the connection's `config` so an audit never rewrites what a
-- reconnect just chose.
CREATE TABLE tag_manager_states (
    connection_id   TEXT PRIMARY KEY REFERENCES connections(id) ON DELETE CASCADE,
    account_id      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    product_id      TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    container_path  TEXT NOT NULL,
    -- NULL until the first audit of this container.
    snippet_live    BOOLEAN,
    audited_at      BIGINT,
    -- NULL until Payback published there.
    workspace_name  TEXT,
    version_name    TEXT,
    published       BOOLEAN,
    deployed_at     BIGINT
);
