-- The validators (ETag, Last-Modified) the transcribed file was served with,
-- adopted with its fingerprint: the first audio check asks the host whether
-- they still hold. Without them, a host that sends Last-Modified had every
-- freshly transcribed episode downloaded a second time to compare.
ALTER TABLE audio_pending_references ADD COLUMN etag text, ADD COLUMN last_modified text;
