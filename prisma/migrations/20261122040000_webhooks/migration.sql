-- Webhooks: per-account signing secrets, job.done deliveries and their attempts,
-- and hosted test inboxes.

-- One signing secret per account, sealed with the secret box. After a rotation the
-- replaced secret stays for 24 hours so that deliveries carry both signatures.
CREATE TABLE webhook_secrets (
  account_id uuid PRIMARY KEY REFERENCES accounts(id),
  sealed_secret text NOT NULL,
  sealed_previous text,
  rotated_at timestamptz(3),
  created_at timestamptz(3) NOT NULL
);

-- One row per event to send, written in the transaction that caused it and claimed
-- by delivery workers with FOR UPDATE SKIP LOCKED. `claim` counts claims and fences
-- a worker whose lease ran out; `tries` counts attempts that reached a result and
-- picks the wait from the retry schedule. job_id has no foreign key, so that the
-- delivery history does not depend on how jobs are stored.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  job_id uuid NOT NULL,
  event text NOT NULL,
  url text NOT NULL,
  payload json NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
  claim integer NOT NULL DEFAULT 0,
  tries integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  lease_until timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  finished_at timestamptz(3),
  -- An event is enqueued once per job, however often the caller's transaction is retried.
  UNIQUE (job_id, event)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_lease_idx ON webhook_deliveries (lease_until) WHERE status = 'sending';

-- Every attempt that reached a result: an HTTP status, or why there was none.
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  at timestamptz(3) NOT NULL,
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);

-- Hosted test receivers, valid 24 hours; anyone may post to one, only its owner reads it.
CREATE TABLE webhook_inboxes (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  created_at timestamptz(3) NOT NULL,
  expires_at timestamptz(3) NOT NULL
);
CREATE INDEX webhook_inboxes_account_id_idx ON webhook_inboxes (account_id);
CREATE INDEX webhook_inboxes_expires_at_idx ON webhook_inboxes (expires_at);

-- What an inbox received; the body is kept as the exact text sent, so that its
-- signature can be checked. At most 100 rows per inbox (the oldest are dropped).
CREATE TABLE webhook_inbox_deliveries (
  id bigserial PRIMARY KEY,
  inbox_id uuid NOT NULL REFERENCES webhook_inboxes(id) ON DELETE CASCADE,
  received_at timestamptz(3) NOT NULL,
  headers json NOT NULL,
  body text NOT NULL
);
CREATE INDEX webhook_inbox_deliveries_inbox_id_idx ON webhook_inbox_deliveries (inbox_id, id);
