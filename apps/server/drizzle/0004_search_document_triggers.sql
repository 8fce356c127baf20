-- The catalogue's search document (products.search_document), weighted: title A, tag names B,
-- author C, description D. Tags and author live in other tables, so a generated column cannot hold
-- it; these triggers keep it current whichever row changes.
CREATE OR REPLACE FUNCTION products_search_document(p_title text, p_description text, p_author_id bigint, p_product_id bigint)
RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, coalesce(p_title, '')), 'A')
    || setweight(to_tsvector('english'::regconfig, coalesce((
         SELECT string_agg(t.name, ' ') FROM product_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.product_id = p_product_id
       ), '')), 'B')
    || setweight(to_tsvector('simple'::regconfig, coalesce((
         SELECT concat_ws(' ', u.nickname, u.name, u.surname) FROM users u WHERE u.id = p_author_id
       ), '')), 'C')
    || setweight(to_tsvector('english'::regconfig, coalesce(p_description, '')), 'D')
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION products_search_document_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := products_search_document(NEW.title, NEW.description, NEW.author_id, NEW.id);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER products_search_document_write
  BEFORE INSERT OR UPDATE OF title, description, author_id ON products
  FOR EACH ROW EXECUTE FUNCTION products_search_document_write();--> statement-breakpoint
-- Statement level with a transition table: a bulk insert of tags refreshes each product once.
CREATE OR REPLACE FUNCTION product_tags_refresh_products() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p
     SET search_document = products_search_document(p.title, p.description, p.author_id, p.id)
   WHERE p.id IN (SELECT DISTINCT product_id FROM changed_rows);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER product_tags_inserted
  AFTER INSERT ON product_tags REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_tags_refresh_products();--> statement-breakpoint
CREATE TRIGGER product_tags_deleted
  AFTER DELETE ON product_tags REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_tags_refresh_products();--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_refresh_product_search() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p
     SET search_document = products_search_document(p.title, p.description, p.author_id, p.id)
   WHERE p.author_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_refresh_product_search
  AFTER UPDATE OF nickname, name, surname ON users
  FOR EACH ROW WHEN (OLD.nickname IS DISTINCT FROM NEW.nickname OR OLD.name IS DISTINCT FROM NEW.name OR OLD.surname IS DISTINCT FROM NEW.surname)
  EXECUTE FUNCTION users_refresh_product_search();--> statement-breakpoint
CREATE OR REPLACE FUNCTION tags_refresh_product_search() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p
     SET search_document = products_search_document(p.title, p.description, p.author_id, p.id)
   WHERE p.id IN (SELECT pt.product_id FROM product_tags pt WHERE pt.tag_id = NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tags_refresh_product_search
  AFTER UPDATE OF name ON tags
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION tags_refresh_product_search();--> statement-breakpoint
UPDATE products SET search_document = products_search_document(title, description, author_id, id);
