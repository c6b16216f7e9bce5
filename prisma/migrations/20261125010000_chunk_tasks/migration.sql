-- Chunk tasks: an episode's decoded audio, split at silences, becomes one row
-- per chunk that any worker process on any machine sharing this database can
-- claim (FOR UPDATE SKIP LOCKED), as transcription_tasks are claimed. The
-- chunk's audio travels in the row, so a worker needs no shared disk; it is
-- dropped once the chunk is transcribed. The episode is stitched and settled
-- in the transaction that stores its last chunk.
CREATE TABLE transcription_chunks (
  task_id uuid NOT NULL REFERENCES transcription_tasks(id) ON DELETE CASCADE,
  -- The task's claim that split the audio: fences chunk writes against a later split.
  task_attempt integer NOT NULL,
  idx integer NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  -- Which lane's engine transcribes it: 'standard' on a fast task is a fallback.
  lane text NOT NULL CHECK (lane IN ('standard', 'fast')),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
  start_seconds real NOT NULL,
  end_seconds real NOT NULL,
  -- 16 kHz mono 16-bit PCM WAV; NULL once transcribed.
  audio bytea,
  attempt integer NOT NULL DEFAULT 0,
  failures integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
  lease_until timestamptz(3),
  worker_id text,
  -- The engine's answer, times relative to the chunk.
  result jsonb,
  -- Worker-slot seconds spent on it, for the lane's measured throughput.
  slot_seconds real,
  last_error text,
  PRIMARY KEY (task_id, idx)
);
CREATE INDEX transcription_chunks_claim_idx ON transcription_chunks (seq) WHERE status IN ('queued', 'running');

-- Worker-slot seconds the task spent before its chunks went out (download, decode, split).
ALTER TABLE transcription_tasks ADD COLUMN split_seconds real NOT NULL DEFAULT 0;
