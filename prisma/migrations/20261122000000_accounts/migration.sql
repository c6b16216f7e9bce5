-- Accounts, keys, registration, the credit ledger, unlocks, request counters, mail.

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  plan text NOT NULL DEFAULT 'free',
  credits integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
  billing_customer_id text,
  cycle_started_at timestamptz(3) NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  lookup_hash text NOT NULL UNIQUE,
  encrypted_key text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at timestamptz(3)
);
CREATE INDEX api_keys_account_id_idx ON api_keys (account_id);
-- At most one current key per account.
CREATE UNIQUE INDEX api_keys_one_current ON api_keys (account_id) WHERE revoked_at IS NULL;

CREATE TABLE registration_tokens (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz(3) NOT NULL,
  used_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX registration_tokens_email_idx ON registration_tokens (email);

CREATE TABLE registration_attempts (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX registration_attempts_email_created_at_idx ON registration_attempts (email, created_at);

CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  kind text NOT NULL CHECK (kind IN ('grant', 'charge', 'refund', 'cycle_reset')),
  amount integer NOT NULL,
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  reference text NOT NULL UNIQUE,
  refund_of bigint UNIQUE REFERENCES ledger_entries(id),
  memo text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_account_id_id_idx ON ledger_entries (account_id, id);

CREATE TABLE request_counters (
  account_id uuid NOT NULL,
  day date NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (account_id, day)
);

CREATE TABLE unlocks (
  account_id uuid NOT NULL REFERENCES accounts(id),
  transcript_id text NOT NULL,
  ledger_id bigint,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, transcript_id)
);
CREATE INDEX unlocks_transcript_id_idx ON unlocks (transcript_id);

CREATE TABLE mails (
  id uuid PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text text NOT NULL,
  html text,
  status text NOT NULL DEFAULT 'pending',
  attempt integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
  lease_until timestamptz(3),
  last_error text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  sent_at timestamptz(3)
);
CREATE INDEX mails_status_next_attempt_at_idx ON mails (status, next_attempt_at);
