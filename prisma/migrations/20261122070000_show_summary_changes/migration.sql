-- Search results are cached by each API process as well as the names it
-- searches: the change mark now also covers every column a result shows, so
-- the pull that keeps the index in step drops cached results that changed.
DROP TRIGGER shows_search_change ON shows;

CREATE TRIGGER shows_search_change BEFORE UPDATE ON shows FOR EACH ROW
  WHEN ((OLD.search_name, OLD.popularity, OLD.dead, OLD.title, OLD.author, OLD.artwork, OLD.apple_id, OLD.indexed, OLD.categories, OLD.language)
        IS DISTINCT FROM
        (NEW.search_name, NEW.popularity, NEW.dead, NEW.title, NEW.author, NEW.artwork, NEW.apple_id, NEW.indexed, NEW.categories, NEW.language))
  EXECUTE FUNCTION shows_mark_search_change();
