-- Emails as identity (issue 20): who holds each email a product's events name.
--
-- `identity` is the holder: `u:<user id>` (for good), `a:<anonymous id>` (a visitor who named
-- the email before any user did; read through `identity_links` once linked), or `e:<email>`
-- (only events with neither id named it: they count for that identity until someone claims the
-- email, when its rows move to the claimant). `conflict_at` is the time of the latest event that
-- named the email with a user other than its holder; the attribution report counts the emails
-- with one in its window (`email_conflicts`), through the partial index, which only such rare
-- rows enter. Filled by the fold (`store/src/ingest/emails.rs`), one probe per email it sees.
CREATE TABLE email_identities (
    product_id   TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    identity     TEXT NOT NULL,
    conflict_at  BIGINT,
    PRIMARY KEY (product_id, email)
);
CREATE INDEX email_identities_by_conflict ON email_identities(product_id, conflict_at)
    WHERE conflict_at IS NOT NULL;

-- Events stored before keep their identities; the emails their users named are held by the
-- first user to have named each (events' ids are their arrival order), so what arrives from now
-- on joins them. Emails only visitors named are not taken over: the next event naming them does.
INSERT INTO email_identities (product_id, email, identity)
SELECT e.product_id, e.email, 'u:' || e.user_id FROM events e
WHERE e.id IN (SELECT MIN(id) FROM events WHERE email IS NOT NULL AND user_id IS NOT NULL
               GROUP BY product_id, email);
UPDATE email_identities SET conflict_at = c.at FROM (
    SELECT e.product_id, e.email, MAX(e.occurred_at) AS at FROM events e
    JOIN email_identities o ON o.product_id = e.product_id AND o.email = e.email
    WHERE e.user_id IS NOT NULL AND o.identity <> 'u:' || e.user_id
    GROUP BY e.product_id, e.email) AS c
WHERE email_identities.product_id = c.product_id AND email_identities.email = c.email;
