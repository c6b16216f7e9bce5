-- Feed ingestion: ids for shows the Podcast Index does not know, and the queue of
-- publisher transcripts still to fetch.

-- Shows added by feed URL that have no Podcast Index id get one from here. Podcast
-- Index ids are small (millions); starting at 10^12 keeps the two ranges apart for good.
CREATE SEQUENCE shows_own_id_seq AS bigint START WITH 1000000000000 MINVALUE 1000000000000;

-- One row per episode whose feed links a transcript we have not stored yet. A fetch
-- that succeeds deletes its row; one that keeps failing stays with next_attempt_at
-- NULL (given up) until the feed names a different URL.
CREATE TABLE publisher_transcript_fetches (
  transcript_id text PRIMARY KEY REFERENCES episodes(transcript_id) ON DELETE CASCADE,
  show_id bigint NOT NULL,
  url text NOT NULL,
  type text NOT NULL DEFAULT '',
  -- The link's language attribute, used when the transcript itself names none.
  language text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  last_error text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX publisher_transcript_fetches_due_idx ON publisher_transcript_fetches (next_attempt_at)
  WHERE next_attempt_at IS NOT NULL;
CREATE INDEX publisher_transcript_fetches_show_idx ON publisher_transcript_fetches (show_id);

-- Secondary indexes of shows dropped for a bulk import, with the statement that
-- rebuilds them. Kept in a table so an import that dies half way still gets them
-- back: the next import (or `restoreDeferredIndexes`) recreates whatever is listed.
CREATE TABLE catalog_deferred_indexes (
  name text PRIMARY KEY,
  definition text NOT NULL,
  deferred_at timestamptz(3) NOT NULL DEFAULT now()
);
