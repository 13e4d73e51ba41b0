-- Keyword filters are matched in Node (lib/mutes/matcher.ts), not by PostgreSQL's regular expressions: the compiled
-- pattern column goes, and users.filters_version tells readers when a user's filters changed.
ALTER TABLE "keyword_filters" DROP COLUMN "pattern";
ALTER TABLE "users" ADD COLUMN "filters_version" INTEGER NOT NULL DEFAULT 0;

-- (A user's filters never move to another user: user_id is only ever set on insert.)
CREATE FUNCTION keyword_filters_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET filters_version = filters_version + 1 WHERE id = COALESCE(NEW.user_id, OLD.user_id); RETURN NULL; END $$;

CREATE TRIGGER keyword_filters_version AFTER INSERT OR UPDATE OR DELETE ON "keyword_filters"
  FOR EACH ROW EXECUTE FUNCTION keyword_filters_version();
