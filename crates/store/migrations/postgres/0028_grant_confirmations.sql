-- The grants could be phished (issue 35): `auth_url` was the provider's consent URL, so a link
-- an attacker's workspace started could be sent to a victim, whose consent then sealed the
-- victim's token into the attacker's workspace. `auth_url` is now a page of Payback's naming the
-- workspace, the product, who started the flow and what it reads or changes; only its form sends
-- the person on to the provider, and the callback takes a state only once it was confirmed there.

-- The provider's authorization URL the confirmation redirects to (built at `start`, with the
-- state and the PKCE challenge). NULL for states started before this migration: their page
-- answers "start again".
ALTER TABLE grant_states ADD COLUMN provider_url TEXT;
-- Who started the flow, as the page names them: `person` (`started_by` is the email),
-- `api_key` (its name and its creator's email as they were at `start`; the creator is NULL for
-- an agent's sign-up key), `operator`, `system`.
ALTER TABLE grant_states ADD COLUMN started_as TEXT NOT NULL DEFAULT 'person';
ALTER TABLE grant_states ADD COLUMN started_key_id TEXT;
ALTER TABLE grant_states ADD COLUMN started_key_name TEXT;
ALTER TABLE grant_states ADD COLUMN started_key_creator TEXT;
-- When a person confirmed on the page, and the hash of the random value the confirming browser
-- was given in a cookie: the callback refuses a state without them, and one coming back in
-- another browser (a provider link someone confirmed for themselves and then sent on).
ALTER TABLE grant_states ADD COLUMN confirmed_at BIGINT;
ALTER TABLE grant_states ADD COLUMN confirmed_browser TEXT;
