-- Queue upkeep: finished transcription tasks and delivered webhooks are
-- pruned after QUEUE_RETENTION_DAYS (src/core/jobs/queue-upkeep.ts). These
-- partial indexes let the hourly prune find old rows without reading the
-- live queue or the whole table.
CREATE INDEX transcription_tasks_finished_idx ON transcription_tasks (finished_at) WHERE status IN ('done', 'failed');
CREATE INDEX webhook_deliveries_delivered_idx ON webhook_deliveries (finished_at) WHERE status = 'delivered';
