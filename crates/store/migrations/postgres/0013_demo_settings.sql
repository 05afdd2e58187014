-- The demo workspace's settings (issue 19). `password`: the demo owner's sign-in password,
-- chosen at random the first time `payback demo` or `serve --demo` runs on this database and
-- printed by every later run. Only those commands read this table (no route does); sign-in
-- checks the demo owner's argon2 hash in `users`, like everyone's.
CREATE TABLE demo_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
