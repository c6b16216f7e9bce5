-- One value sealed with the deployment's secret key, written by the first
-- process to start: a process whose key does not open it refuses to start,
-- instead of sealing webhook secrets and keys another process cannot open.
CREATE TABLE secret_key_check (
  id smallint PRIMARY KEY CHECK (id = 1),
  sealed text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
