-- posts.search_vector is kept by a trigger rather than as a generated column, and the GIN indexes lose their
-- per-index pending-list limit (the pool's connections set gin_pending_list_limit instead, lib/db/client.ts): Prisma
-- can declare neither a generated column's expression nor index storage parameters, while a trigger is a SQL-only
-- object that `prisma-sql check` lists apart. Same values, same index: DROP EXPRESSION keeps every row's vector.
ALTER TABLE "posts" ALTER COLUMN "search_vector" DROP EXPRESSION;

-- The body ends on its statement's line (prisma-sql check splits a dump where a semicolon ends a line).
CREATE OR REPLACE FUNCTION posts_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := to_tsvector(search_config(NEW.language), NEW.content) || to_tsvector('pg_catalog.simple'::regconfig, NEW.content); RETURN NEW; END $$;

CREATE TRIGGER posts_search_vector BEFORE INSERT OR UPDATE OF content, language ON "posts"
FOR EACH ROW EXECUTE FUNCTION posts_search_vector();

ALTER INDEX "posts_search_vector_idx" RESET (gin_pending_list_limit);
ALTER INDEX "users_handle_key_trgm_idx" RESET (gin_pending_list_limit);
ALTER INDEX "users_display_name_trgm_idx" RESET (gin_pending_list_limit);
ALTER INDEX "teams_name_trgm_idx" RESET (gin_pending_list_limit);
ALTER INDEX "teams_short_name_trgm_idx" RESET (gin_pending_list_limit);
ALTER INDEX "teams_city_trgm_idx" RESET (gin_pending_list_limit);
ALTER INDEX "players_name_trgm_idx" RESET (gin_pending_list_limit);
ALTER INDEX "collectible_cards_name_trgm_idx" RESET (gin_pending_list_limit);
