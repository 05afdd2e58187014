-- Microsoft Clarity answers at most 10 export requests per project per UTC day (`replay_a`):
-- the requests Payback sent, counted per Clarity project id and day before each is sent, so a
-- restart or a second instance keeps the count. Keyed by the vendor's project, not by a
-- connection: two products (or accounts) naming one project share its ten. Old days are
-- never read again; a row is a few bytes a project a day.
CREATE TABLE replay_requests (
    project_id  TEXT NOT NULL,
    day         TEXT NOT NULL,
    requests    BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (project_id, day)
);
