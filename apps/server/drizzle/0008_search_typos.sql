-- Typo tolerance for the catalogue search, as Meilisearch and Algolia have it: a query word of 5 to 8
-- letters may carry one typo, of 9 or more two; a typo is an insertion, a deletion, a substitution or
-- a transposition of two neighbours (optimal string alignment distance). fuzzystrmatch (PostgreSQL
-- contrib, and a PGlite extension) gives a fast Levenshtein that settles most candidates.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;--> statement-breakpoint
-- The vocabulary a typo is corrected against: every word of 4 to 40 letters that products' titles,
-- descriptions, tags or authors have ever carried. It only grows: a word that left the catalogue
-- still corrects a typo, to a word that then matches nothing, which is harmless.
CREATE TABLE "search_words" ("word" text PRIMARY KEY NOT NULL);--> statement-breakpoint
-- Each word's deletion neighbourhood (as SymSpell has it): the word and what remains of it with one
-- letter deleted, or up to two for words of 9 letters or more. Two words k typos apart (a
-- substitution or a swap is one deletion on each side, an insertion one on the other) share a key
-- with at most k deletions on each side, so an exact lookup finds every candidate.
CREATE TABLE "search_word_keys" (
  "key" text NOT NULL,
  "word" text NOT NULL,
  CONSTRAINT "search_word_keys_pk" PRIMARY KEY ("key", "word")
);--> statement-breakpoint
-- The trigram fallback on titles is replaced by the typo tolerance below.
DROP INDEX IF EXISTS "products_title_trgm_idx";--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_words_of(p_text text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple'::regconfig, coalesce(p_text, '')))) w
   WHERE length(w) BETWEEN 4 AND 40 AND w !~ '[^[:alpha:]]'
$$;--> statement-breakpoint
-- A word's keys: itself; with one letter deleted from 5 letters on (a typed word of 5 or more may
-- carry one typo); with two deleted from 9 letters on (two typos). Keys shorter than 4 letters
-- could never be shared with a word within budget, so none are made.
CREATE OR REPLACE FUNCTION search_word_keys_of(p_word text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  n integer := length(p_word);
  keys text[] := ARRAY[p_word];
  shorter text;
BEGIN
  IF n >= 5 THEN
    FOR i IN 1..n LOOP
      shorter := overlay(p_word PLACING '' FROM i FOR 1);
      keys := keys || shorter;
      IF n >= 9 THEN
        FOR j IN i..n - 1 LOOP
          keys := keys || overlay(shorter PLACING '' FROM j FOR 1);
        END LOOP;
      END IF;
    END LOOP;
  END IF;
  RETURN ARRAY(SELECT DISTINCT k FROM unnest(keys) k);
END
$$;--> statement-breakpoint
-- New words join the vocabulary with their keys; words already there cost one index probe each.
-- In alphabetical order, so two transactions adding the same new words wait for each other instead
-- of deadlocking. Only the transaction that added a word writes its keys.
CREATE OR REPLACE FUNCTION search_words_add(p_words text[]) RETURNS void
LANGUAGE sql AS $$
  WITH added AS (
    INSERT INTO search_words (word) SELECT DISTINCT w FROM unnest(p_words) w ORDER BY w ON CONFLICT DO NOTHING RETURNING word
  )
  INSERT INTO search_word_keys (key, word)
  SELECT k, a.word FROM added a CROSS JOIN LATERAL unnest(search_word_keys_of(a.word)) k
  ON CONFLICT DO NOTHING
$$;--> statement-breakpoint
-- Optimal string alignment distance: Levenshtein plus the transposition of two neighbouring letters
-- as one edit (fuzzystrmatch's levenshtein counts that as two). Costly: called only on the few
-- words that Levenshtein could not settle.
CREATE OR REPLACE FUNCTION osa_distance(a text, b text) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
DECLARE
  sa text[] := regexp_split_to_array(a, '');
  sb text[] := regexp_split_to_array(b, '');
  la integer := length(a);
  lb integer := length(b);
  w integer := length(b) + 1;
  d integer[];
  v integer;
BEGIN
  IF la = 0 THEN RETURN lb; END IF;
  IF lb = 0 THEN RETURN la; END IF;
  -- d(i, j) is d[i * w + j + 1]: the distance between a's first i letters and b's first j.
  d := array_fill(0, ARRAY[(la + 1) * w]);
  FOR i IN 0..la LOOP d[i * w + 1] := i; END LOOP;
  FOR j IN 0..lb LOOP d[j + 1] := j; END LOOP;
  FOR i IN 1..la LOOP
    FOR j IN 1..lb LOOP
      v := least(d[(i - 1) * w + j + 1] + 1, d[i * w + j] + 1, d[(i - 1) * w + j] + CASE WHEN sa[i] = sb[j] THEN 0 ELSE 1 END);
      IF i > 1 AND j > 1 AND sa[i] = sb[j - 1] AND sa[i - 1] = sb[j] THEN
        v := least(v, d[(i - 2) * w + j - 1] + 1);
      END IF;
      d[i * w + j + 1] := v;
    END LOOP;
  END LOOP;
  RETURN d[la * w + lb + 1];
END
$$;--> statement-breakpoint
-- The search as websearch_to_tsquery reads it, with each word of 5 or more letters widened to the
-- vocabulary's words within its typo budget: 'portriat' becomes 'portriat' | 'portrait'. Phrases,
-- "or" and exclusions keep their meaning, since the rewrite works on the parsed query. Stop words
-- are neither corrected nor corrections; a correction that stems like the typed word adds nothing.
-- Candidates come from the keys; Levenshtein (in C) settles most, osa_distance the rest.
CREATE OR REPLACE FUNCTION search_query_with_typos(p_search text) RETURNS tsquery
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  result tsquery := websearch_to_tsquery('english'::regconfig, p_search);
  typed text;
  budget integer;
  target tsquery;
  fixed tsquery;
  alternatives tsquery;
  done tsquery[] := '{}';
BEGIN
  FOR typed IN
    SELECT DISTINCT m[1] FROM regexp_matches(lower(p_search), '[[:alpha:]]+', 'g') m WHERE length(m[1]) BETWEEN 5 AND 40
  LOOP
    target := plainto_tsquery('english'::regconfig, typed);
    CONTINUE WHEN numnode(target) <> 1 OR target = ANY (done);
    done := done || target;
    budget := CASE WHEN length(typed) >= 9 THEN 2 ELSE 1 END;
    alternatives := NULL;
    FOR fixed IN
      SELECT DISTINCT plainto_tsquery('english'::regconfig, c.word)
        FROM (SELECT candidate.word
                FROM (SELECT DISTINCT k.word FROM search_word_keys k
                       WHERE k.key = ANY (search_word_keys_of(typed)) AND k.word <> typed) candidate
               WHERE length(candidate.word) BETWEEN length(typed) - budget AND length(typed) + budget
                 AND (levenshtein_less_equal(candidate.word, typed, budget) <= budget OR osa_distance(candidate.word, typed) <= budget)
               ORDER BY levenshtein_less_equal(candidate.word, typed, 2 * budget), candidate.word
               LIMIT 20) c
    LOOP
      CONTINUE WHEN numnode(fixed) <> 1 OR fixed = target;
      alternatives := CASE WHEN alternatives IS NULL THEN fixed ELSE alternatives || fixed END;
    END LOOP;
    IF alternatives IS NOT NULL THEN
      result := ts_rewrite(result, target, target || alternatives);
    END IF;
  END LOOP;
  RETURN result;
END
$$;--> statement-breakpoint
-- Keeping the vocabulary current. A bulk insert of products adds its words in one statement.
CREATE OR REPLACE FUNCTION products_add_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_add(ARRAY(
    SELECT DISTINCT w
      FROM changed_rows p
      LEFT JOIN users u ON u.id = p.author_id
      CROSS JOIN LATERAL search_words_of(concat_ws(' ', p.title, p.description, u.nickname, u.name, u.surname)) w));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER products_add_search_words
  AFTER INSERT ON products REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_add_search_words();--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_add_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_add(ARRAY(
    SELECT w FROM search_words_of(concat_ws(' ', NEW.title, NEW.description,
      (SELECT concat_ws(' ', u.nickname, u.name, u.surname) FROM users u WHERE u.id = NEW.author_id))) w));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER product_add_search_words
  AFTER UPDATE OF title, description, author_id ON products
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description OR OLD.author_id IS DISTINCT FROM NEW.author_id)
  EXECUTE FUNCTION product_add_search_words();--> statement-breakpoint
CREATE OR REPLACE FUNCTION tag_add_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_add(ARRAY(SELECT w FROM search_words_of(NEW.name) w));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tag_add_search_words
  AFTER INSERT OR UPDATE OF name ON tags
  FOR EACH ROW EXECUTE FUNCTION tag_add_search_words();--> statement-breakpoint
-- An author's new name; a user without products is no part of the catalogue's vocabulary.
CREATE OR REPLACE FUNCTION author_add_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM products p WHERE p.author_id = NEW.id) THEN
    PERFORM search_words_add(ARRAY(SELECT w FROM search_words_of(concat_ws(' ', NEW.nickname, NEW.name, NEW.surname)) w));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER author_add_search_words
  AFTER UPDATE OF nickname, name, surname ON users
  FOR EACH ROW WHEN (OLD.nickname IS DISTINCT FROM NEW.nickname OR OLD.name IS DISTINCT FROM NEW.name OR OLD.surname IS DISTINCT FROM NEW.surname)
  EXECUTE FUNCTION author_add_search_words();--> statement-breakpoint
SELECT search_words_add(ARRAY(
  SELECT DISTINCT w
    FROM (
      SELECT concat_ws(' ', p.title, p.description, u.nickname, u.name, u.surname) AS text
        FROM products p LEFT JOIN users u ON u.id = p.author_id
      UNION ALL
      SELECT t.name FROM tags t
    ) s
    CROSS JOIN LATERAL search_words_of(s.text) w));
