-- Episodes sharing a date (a season published at once) or with none are listed in the
-- feed's own order, not by transcript id: feed_order is the episode's place in the
-- feed's newest-first list when first seen, counted from the oldest (higher is newer).
ALTER TABLE episodes ADD COLUMN feed_order integer;
DROP INDEX IF EXISTS episodes_show_published_idx;
CREATE INDEX episodes_show_order_idx ON episodes (show_id, published_at DESC NULLS LAST, feed_order DESC NULLS LAST, transcript_id);
