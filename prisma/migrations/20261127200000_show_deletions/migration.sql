-- A deleted show (an import handing it over to its directory id) leaves no row
-- for the search indexes' pull to read, so each API process kept offering it
-- until restart. Its id is kept here, marked by the deleting transaction, and
-- pruned with the finished queue rows.
CREATE TABLE shows_deleted (
  id bigint NOT NULL,
  deleted_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shows_deleted_xid_idx ON shows_deleted (deleted_xid);

CREATE FUNCTION shows_note_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shows_deleted (id) VALUES (OLD.id);
  RETURN OLD;
END;
$$;

CREATE TRIGGER shows_deletion AFTER DELETE ON shows FOR EACH ROW EXECUTE FUNCTION shows_note_deletion();
