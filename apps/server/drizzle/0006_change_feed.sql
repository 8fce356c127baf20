-- Cache invalidation that reaches every app server: a statement-level trigger notifies the
-- atelier_changes channel with a topic when shared, cached data changes (NOTIFY is sent on commit,
-- and repeated identical notices in one transaction are sent once).
CREATE OR REPLACE FUNCTION atelier_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('atelier_changes', TG_ARGV[0]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
CREATE TRIGGER pack_items_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pack_items FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
CREATE TRIGGER product_tags_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_tags FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
CREATE TRIGGER tags_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tags FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
CREATE TRIGGER categories_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
CREATE TRIGGER currencies_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON currencies FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
CREATE TRIGGER users_catalog_changes AFTER UPDATE OF name, surname, nickname, avatar_path, deleted_at ON users FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('catalog');
--> statement-breakpoint
CREATE TRIGGER site_settings_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_settings FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('settings');
--> statement-breakpoint
CREATE TRIGGER static_pages_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON static_pages FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('site');
--> statement-breakpoint
CREATE TRIGGER social_links_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON social_links FOR EACH STATEMENT EXECUTE FUNCTION atelier_notify_change('site');
--> statement-breakpoint
-- Currencies say how many decimals their amounts have (JPY: 0), so whole-only amounts are a rule, not a guess.
ALTER TABLE currencies ADD COLUMN IF NOT EXISTS decimals smallint NOT NULL DEFAULT 2;
