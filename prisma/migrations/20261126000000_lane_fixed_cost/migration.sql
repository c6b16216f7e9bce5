-- A task's time is a fixed part (download, decode, split, engine start) plus a part per audio second.
-- The lane learns both by a decayed least-squares fit over finished tasks: these are its running sums
-- (weight, audio, slot time, audio², audio × slot time), and fixed_seconds the fitted fixed part.
ALTER TABLE lane_throughput
  ADD COLUMN fixed_seconds real NOT NULL DEFAULT 0,
  ADD COLUMN sum_w float8 NOT NULL DEFAULT 0,
  ADD COLUMN sum_x float8 NOT NULL DEFAULT 0,
  ADD COLUMN sum_y float8 NOT NULL DEFAULT 0,
  ADD COLUMN sum_xx float8 NOT NULL DEFAULT 0,
  ADD COLUMN sum_xy float8 NOT NULL DEFAULT 0;
