-- Plans bought through the payment provider: which subscription an account
-- follows, the provider's status of it, and the allowance granted this cycle
-- (so an upgrade mid-cycle tops up by the difference, once).

ALTER TABLE accounts
  ADD COLUMN billing_subscription_id text,
  ADD COLUMN billing_status text,
  ADD COLUMN cycle_allowance integer NOT NULL DEFAULT 0;

-- One account per provider customer: webhooks find the account by it.
CREATE UNIQUE INDEX accounts_billing_customer_id_key ON accounts (billing_customer_id) WHERE billing_customer_id IS NOT NULL;

-- Provider events already applied, written in the same transaction as their
-- effects, so a redelivered event changes nothing.
CREATE TABLE billing_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  account_id uuid,
  received_at timestamptz(3) NOT NULL DEFAULT now()
);
