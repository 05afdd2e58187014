-- The ad account a spend proposal was raised for (issue 35): the product's connection that would
-- apply it (its id) and the network's own account id as that connection named it then (a Google
-- Ads customer id, a Meta ad account id). Applying the approved change refuses, writing nothing,
-- when the product's connection for the network is another one or now points at another account,
-- so a human's approval never lands on an account the proposal did not name. Both are null on
-- cards raised while the product had no such connection (and on every card of before), which
-- apply as they always did.
ALTER TABLE cards ADD COLUMN connection_id TEXT;
ALTER TABLE cards ADD COLUMN ad_account_id TEXT;
