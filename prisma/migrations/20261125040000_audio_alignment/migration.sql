-- Timestamps that follow the audio: each transcribed episode's audio is
-- fingerprinted once (the reference its transcript's times were made on) and
-- re-checked on a schedule; when a host re-splices the file (dynamically
-- inserted ads), the transcript is re-timed through a map from the reference
-- clock to the served audio's clock.
CREATE TABLE audio_checks (
  transcript_id      text PRIMARY KEY REFERENCES episodes (transcript_id),
  -- The document on the reference audio's clock, kept from the first re-timing
  -- on (until then it is the transcript's own): every re-timing starts from it,
  -- so repeated re-splices never accumulate error.
  base_doc           jsonb,
  -- Chromaprint raw fingerprint (little-endian 32-bit items) and a 100 Hz
  -- log-energy envelope (one byte per 10 ms) that refines boundaries below
  -- the fingerprint's 0.124 s step.
  reference          bytea,
  envelope           bytea,
  reference_seconds  real,
  fingerprint_tool   text,
  -- What the cheap check compares before fingerprinting again.
  audio_url          text,
  audio_host         text,
  etag               text,
  last_modified      text,
  content_length     bigint,
  -- Set once a re-check found inserted stretches: such hosts change the file
  -- without changing its length or validators, so every check fingerprints.
  inserts_ads        boolean NOT NULL DEFAULT false,
  -- The map the transcript's current times went through (null: the reference's own times).
  alignment          jsonb,
  last_result        text,
  checked_at         timestamptz(3),
  next_check_at      timestamptz(3) NOT NULL,
  created_at         timestamptz(3) NOT NULL DEFAULT now(),
  updated_at         timestamptz(3) NOT NULL DEFAULT now()
);

CREATE INDEX audio_checks_due ON audio_checks (next_check_at);
CREATE INDEX audio_checks_host_ads ON audio_checks (audio_host) WHERE inserts_ads;

-- Every alignment outcome, kept for audit: applied maps (with the one they
-- replaced), refusals of unrelated audio and low-confidence results left alone.
CREATE TABLE audio_alignments (
  id             bigserial PRIMARY KEY,
  transcript_id  text NOT NULL REFERENCES episodes (transcript_id),
  outcome        text NOT NULL,
  reason         text,
  audio_seconds  real,
  alignment      jsonb,
  previous       jsonb,
  created_at     timestamptz(3) NOT NULL DEFAULT now()
);

CREATE INDEX audio_alignments_transcript ON audio_alignments (transcript_id, id);
