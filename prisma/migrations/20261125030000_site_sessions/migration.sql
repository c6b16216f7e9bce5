-- Website sign-ins. A browser holds a random token in a cookie; only its hash is
-- stored. Each session is bound to the key it was opened with: once that key is
-- revoked (rotation) the session no longer authenticates.
CREATE TABLE site_sessions (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  key_id uuid NOT NULL REFERENCES api_keys(id),
  created_at timestamptz(3) NOT NULL,
  expires_at timestamptz(3) NOT NULL
);
CREATE INDEX site_sessions_key_id ON site_sessions (key_id);
