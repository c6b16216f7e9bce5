-- Only a mail written to carry the account's key has the key put in at
-- sending. Every mail was filled before, so a title in a completion mail that
-- spelled the placeholder got the notified account's key. Rows already queued
-- keep being filled (they may be key mails); new rows are filled only when
-- they ask to be.
ALTER TABLE mails ADD COLUMN fills_key boolean NOT NULL DEFAULT true;
ALTER TABLE mails ALTER COLUMN fills_key SET DEFAULT false;
