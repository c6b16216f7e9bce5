-- Every API process keeps a search index of show names and pulls what changed
-- since its last look. It used to find changes through age(xmin), a scan of
-- the whole table every refresh; this marks the writing transaction on the
-- columns the index holds, behind an index.
ALTER TABLE shows ADD COLUMN search_changed_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX shows_search_changed_xid_idx ON shows (search_changed_xid);

CREATE FUNCTION shows_mark_search_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_changed_xid := pg_current_xact_id();
  RETURN NEW;
END;
$$;

CREATE TRIGGER shows_search_change BEFORE UPDATE ON shows FOR EACH ROW
  WHEN ((OLD.search_name, OLD.popularity, OLD.dead) IS DISTINCT FROM (NEW.search_name, NEW.popularity, NEW.dead))
  EXECUTE FUNCTION shows_mark_search_change();
