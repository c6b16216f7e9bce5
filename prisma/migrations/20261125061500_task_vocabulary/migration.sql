-- The show's own words (names from its feed) that the recogniser is told to
-- listen for: computed once when the episode's task is claimed and kept here
-- when it is split, so every chunk, whichever worker process claims it, is
-- recognised with the same vocabulary.
ALTER TABLE transcription_tasks ADD COLUMN vocabulary jsonb NOT NULL DEFAULT '[]'::jsonb;
