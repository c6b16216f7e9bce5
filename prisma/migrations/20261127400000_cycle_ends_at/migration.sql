-- Where the current cycle ends when the payment provider set it: Stripe's
-- period end. A monthly period anchored on the 29th to 31st keeps its day
-- (Jan 31, Feb 28, Mar 31), which a month counted from the cycle's start
-- (Feb 28 + 1 month = Mar 28) does not: the cycle's end was shown days early,
-- and a lapsed plan's Free cycle started before the paid period was over.
-- Null: one calendar month from the cycle's start (Free and admin-set plans).
ALTER TABLE accounts ADD COLUMN cycle_ends_at timestamptz(3);
