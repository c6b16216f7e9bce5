-- The directory Podtext keeps: shows, episodes, transcripts, charts; and import bookkeeping.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TABLE shows (
  id bigint PRIMARY KEY,
  title text NOT NULL,
  author text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  artwork text NOT NULL DEFAULT '',
  language text,
  categories text[] NOT NULL DEFAULT '{}',
  feed_url text UNIQUE,
  website text,
  apple_id bigint UNIQUE,
  podcast_guid text,
  itunes_type text,
  explicit boolean,
  indexed boolean NOT NULL DEFAULT true,
  dead boolean NOT NULL DEFAULT false,
  source text NOT NULL DEFAULT 'feed',
  popularity real NOT NULL DEFAULT 0,
  -- Normalised title for fuzzy search: lower case, no accents, punctuation dropped;
  -- search_compact also drops spaces so "dhunplugged" meets "DH Unplugged".
  search_name text NOT NULL DEFAULT '',
  search_compact text NOT NULL DEFAULT '',
  episode_count_tracked integer,
  newest_episode_at timestamptz(3),
  truncated boolean NOT NULL DEFAULT false,
  etag text,
  last_modified text,
  last_fetched_at timestamptz(3),
  next_fetch_at timestamptz(3),
  details_refreshed_at timestamptz(3),
  fetch_failures integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX shows_search_name_trgm ON shows USING gin (search_name gin_trgm_ops);
CREATE INDEX shows_search_compact_trgm ON shows USING gin (search_compact gin_trgm_ops);
CREATE INDEX shows_next_fetch_at_idx ON shows (next_fetch_at) WHERE indexed AND NOT dead;
CREATE INDEX shows_popularity_idx ON shows (popularity DESC);

CREATE TABLE episodes (
  transcript_id text PRIMARY KEY,
  show_id bigint NOT NULL REFERENCES shows(id),
  guid text NOT NULL,
  title text NOT NULL,
  description text,
  episode_number integer,
  season integer,
  published_at timestamptz(3),
  duration_seconds integer,
  audio_url text,
  audio_type text,
  audio_bytes bigint,
  image text,
  link text,
  transcript_status text NOT NULL DEFAULT 'none' CHECK (transcript_status IN ('none', 'processing', 'ready')),
  publisher_transcript_url text,
  publisher_transcript_type text,
  persons jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX episodes_show_published_idx ON episodes (show_id, published_at DESC NULLS LAST);
CREATE INDEX episodes_ready_idx ON episodes (show_id) WHERE transcript_status = 'ready';

CREATE TABLE transcripts (
  transcript_id text PRIMARY KEY REFERENCES episodes(transcript_id),
  version integer NOT NULL DEFAULT 1,
  source text NOT NULL CHECK (source IN ('publisher', 'asr')),
  engine text,
  model text,
  language text,
  word_times_estimated boolean NOT NULL DEFAULT false,
  doc jsonb NOT NULL,
  word_count integer NOT NULL,
  duration_seconds real,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE chart_genres (
  slug text PRIMARY KEY,
  apple_genre_id integer,
  name text NOT NULL
);

CREATE TABLE chart_entries (
  genre_slug text NOT NULL,
  rank integer NOT NULL,
  apple_id bigint NOT NULL,
  title text NOT NULL,
  author text NOT NULL DEFAULT '',
  artwork text NOT NULL DEFAULT '',
  fetched_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (genre_slug, rank)
);

CREATE TABLE import_progress (
  name text PRIMARY KEY,
  position bigint NOT NULL DEFAULT 0,
  rows_done bigint NOT NULL DEFAULT 0,
  finished_at timestamptz(3),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
