-- Set when a feed takes over an episode first requested by audio URL whose
-- transcript was made from the requester's file: the next audio check compares
-- the feed's audio with that file, and withdraws the transcript when the feed
-- serves another recording (a guid claimed with other audio is not the episode).
ALTER TABLE audio_checks ADD COLUMN verify_recording boolean NOT NULL DEFAULT false;
