-- Transcription requests: jobs and the episodes they wait for, the durable task
-- queue workers claim (one live task per episode, however many jobs want it),
-- measured throughput per lane, and the worker pools that are alive.

CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  -- Creation order: created_at comes from the service clock and may tie.
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'done')),
  fast boolean NOT NULL DEFAULT false,
  notify_email text NOT NULL,
  webhook_url text,
  -- Fast lane only: seconds from created_at by which the job is promised.
  promise_seconds integer,
  total integer NOT NULL,
  created_at timestamptz(3) NOT NULL,
  started_at timestamptz(3),
  finished_at timestamptz(3)
);
CREATE INDEX jobs_account_newest_idx ON jobs (account_id, seq DESC);

-- One row per episode being transcribed. The partial unique index is what makes
-- "one episode is transcribed once": a second request joins the live task.
-- attempt grows with every claim and fences writers whose lease has run out.
CREATE TABLE transcription_tasks (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  transcript_id text NOT NULL REFERENCES episodes(transcript_id),
  lane text NOT NULL CHECK (lane IN ('standard', 'fast')),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  audio_url text NOT NULL,
  -- Estimate from the request or the index until the audio is decoded, then measured.
  audio_seconds real NOT NULL,
  -- Longest audio paid for (rounding included); longer audio fails the task.
  max_seconds integer NOT NULL,
  attempt integer NOT NULL DEFAULT 0,
  -- Failed attempts, a lease that ran out included; a graceful release is not one.
  failures integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  lease_seconds integer NOT NULL,
  retry_delay_seconds real NOT NULL,
  next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
  lease_until timestamptz(3),
  worker_id text,
  stage text,
  progress real NOT NULL DEFAULT 0,
  -- Which lane's engine produced the transcript: 'standard' on a fast task is a fallback.
  engine_lane text,
  last_error text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  claimed_at timestamptz(3),
  finished_at timestamptz(3)
);
CREATE UNIQUE INDEX transcription_tasks_one_live_idx ON transcription_tasks (transcript_id) WHERE status IN ('queued', 'running');
CREATE INDEX transcription_tasks_claim_idx ON transcription_tasks ((lane <> 'fast'), seq) WHERE status IN ('queued', 'running');

CREATE TABLE job_episodes (
  job_id uuid NOT NULL REFERENCES jobs(id),
  transcript_id text NOT NULL REFERENCES episodes(transcript_id),
  position integer NOT NULL,
  title text NOT NULL,
  task_id uuid REFERENCES transcription_tasks(id),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'ready', 'failed')),
  billed_hours integer NOT NULL,
  charged integer NOT NULL,
  -- Ledger references: the base charge (1 per hour, unlock included) and, on the
  -- fast lane, the premium (the extra credit per hour) as its own entry, so that
  -- each can be refunded once on its own.
  charge_reference text,
  premium_reference text,
  error text,
  settled_at timestamptz(3),
  PRIMARY KEY (job_id, transcript_id)
);
CREATE INDEX job_episodes_waiting_idx ON job_episodes (task_id) WHERE status = 'queued';
CREATE INDEX job_episodes_transcript_idx ON job_episodes (transcript_id);

-- Moving average of audio seconds transcribed per worker-slot second, per
-- '<lane>:<engine>', kept across restarts for the ETA.
CREATE TABLE lane_throughput (
  lane text PRIMARY KEY,
  audio_seconds_per_second real NOT NULL,
  samples integer NOT NULL DEFAULT 0,
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);

-- Worker pools announce themselves so that the ETA knows how many slots share the queue.
CREATE TABLE transcription_workers (
  id text PRIMARY KEY,
  slots integer NOT NULL,
  started_at timestamptz(3) NOT NULL DEFAULT now(),
  seen_at timestamptz(3) NOT NULL DEFAULT now()
);
