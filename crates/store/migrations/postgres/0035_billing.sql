-- Billing (issue 41): each workspace's plan at Payback's own Stripe account (not the tenants'
-- `payments` connections). No row until the first checkout makes the workspace's customer: the
-- trial runs from the account's creation, so nothing needs writing before that.
-- `stored_plan` is the tier of the subscribed price (`free` before any); `status` is NULL until
-- a subscription is known (a subscription ends the trial for good), then `active`, `past_due`
-- or `canceled`. `last_event_created` is the Stripe `created` (seconds) of the newest event
-- applied: an older one changes nothing. `quantity_pushed` is the item's quantity as Stripe
-- last holds it, so the quantity job writes only when the billable products differ.
CREATE TABLE billing_accounts (
    account_id          TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    customer_id         TEXT NOT NULL UNIQUE,
    subscription_id     TEXT,
    item_id             TEXT,
    stored_plan         TEXT NOT NULL DEFAULT 'free',
    status              TEXT,
    period_end          BIGINT,
    last_event_created  BIGINT,
    quantity_pushed     BIGINT,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
);

-- The Stripe events applied, by id: a redelivery (same id) changes nothing.
CREATE TABLE billing_events (
    event_id    TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    event_type  TEXT NOT NULL,
    created     BIGINT NOT NULL,
    applied_at  BIGINT NOT NULL
);
