-- Trending's `category` filter matches a show's categories case-insensitively.
-- Without an index it walked the popularity index through every show of the
-- language, and for a category no show has through all of them (on 100,000
-- shows, 120-190 ms per request on the API's thread with PGlite).
CREATE FUNCTION lower_each(text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(lower(c)), '{}') FROM unnest($1) AS c $$;

CREATE INDEX shows_categories_lower ON shows USING gin (lower_each(categories));
