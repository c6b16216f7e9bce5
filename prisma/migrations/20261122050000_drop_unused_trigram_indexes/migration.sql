-- Show search runs on Podtext's in-process index; no query reads these two
-- trigram indexes, and keeping them costs every show write and a bulk import
-- seconds per 100k rows. An import interrupted earlier must not rebuild them.
DROP INDEX IF EXISTS shows_search_name_trgm;
DROP INDEX IF EXISTS shows_search_compact_trgm;
DELETE FROM catalog_deferred_indexes WHERE name IN ('shows_search_name_trgm', 'shows_search_compact_trgm');
