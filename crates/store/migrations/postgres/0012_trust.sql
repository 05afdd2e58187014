-- Trust fixes (issue 19).
--
-- `mailbox_proven`: the owner of the mailbox followed a link that was only ever mailed to it
-- (email verification). Invite and claim links do not count: the inviter and the signing-up
-- agent see those links too. A person whose mailbox is not proven can still have their own
-- sign-up set a password through a verification link, so nobody can pre-register an email and
-- keep its owner out. Rows from before: a verified sign-up proved its mailbox.
ALTER TABLE users ADD COLUMN mailbox_proven BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE users SET mailbox_proven = verified WHERE signup_meta IS NOT NULL;

-- The password a sign-up chose travels with its verification link and is set only when the
-- mailbox owner opens that link, so a sign-up by someone else never decides the password.
ALTER TABLE one_time_tokens ADD COLUMN password_hash TEXT;

-- Who created an API key: the person signed in, or the person behind the key that minted it
-- (NULL: an agent's sign-up key, or a key minted by one). Disabling a member revokes theirs.
ALTER TABLE api_keys ADD COLUMN created_by TEXT REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX api_keys_by_creator ON api_keys(created_by);
