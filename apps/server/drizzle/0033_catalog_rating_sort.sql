-- The catalogue's rating sort (sort=rating~desc: the average, unrated last, then the number of
-- reviews, then the newest) read from an index, so a page costs the same at a million works as at a
-- hundred instead of sorting every published one. A type filter walks it too, skipping other types.
CREATE INDEX IF NOT EXISTS "products_rating_idx" ON "products" USING btree ((("rating_sum")::float8 / nullif("rating_count", 0)) DESC NULLS LAST, "rating_count" DESC, "id" DESC);
