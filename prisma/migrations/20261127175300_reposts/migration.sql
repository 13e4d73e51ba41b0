-- AlterEnum
ALTER TYPE "NotificationType" ADD VALUE 'REPOST';
ALTER TYPE "NotificationType" ADD VALUE 'QUOTE';

-- CreateEnum
CREATE TYPE "CommentPolicy" AS ENUM ('EVERYONE', 'FOLLOWERS', 'TEAM_FANS', 'NOBODY');

-- AlterTable
ALTER TABLE "posts" ADD COLUMN     "comment_policy" "CommentPolicy" NOT NULL DEFAULT 'EVERYONE',
ADD COLUMN     "quote_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "quote_detached_at" TIMESTAMPTZ(3),
ADD COLUMN     "quoted_post_id" UUID,
ADD COLUMN     "repost_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "post_pins" (
    "post_id" UUID NOT NULL,
    "user_id" UUID,
    "team_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_pins_pkey" PRIMARY KEY ("post_id")
);

-- CreateTable
CREATE TABLE "post_reposts" (
    "user_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_reposts_pkey" PRIMARY KEY ("user_id","post_id")
);

-- CreateIndex
CREATE INDEX "post_pins_user_id_created_at_post_id_idx" ON "post_pins"("user_id", "created_at" DESC, "post_id" DESC);

-- CreateIndex
CREATE INDEX "post_pins_team_id_created_at_post_id_idx" ON "post_pins"("team_id", "created_at" DESC, "post_id" DESC);

-- CreateIndex
CREATE INDEX "post_reposts_user_id_created_at_post_id_idx" ON "post_reposts"("user_id", "created_at" DESC, "post_id" DESC);

-- CreateIndex
CREATE INDEX "post_reposts_post_id_idx" ON "post_reposts"("post_id");

-- CreateIndex
CREATE INDEX "posts_quoted_post_id_publish_at_id_idx" ON "posts"("quoted_post_id", "publish_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "posts" ADD CONSTRAINT "posts_quoted_post_id_fkey" FOREIGN KEY ("quoted_post_id") REFERENCES "posts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_pins" ADD CONSTRAINT "post_pins_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_pins" ADD CONSTRAINT "post_pins_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_pins" ADD CONSTRAINT "post_pins_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_reposts" ADD CONSTRAINT "post_reposts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_reposts" ADD CONSTRAINT "post_reposts_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Raw: a pin belongs to exactly one profile, a fan's or a team's.
ALTER TABLE "post_pins" ADD CONSTRAINT "post_pins_one_profile" CHECK (("user_id" IS NULL) <> ("team_id" IS NULL));
ALTER TABLE "posts" ADD CONSTRAINT "posts_share_counts_nonnegative" CHECK ("repost_count" >= 0 AND "quote_count" >= 0);

-- Raw: posts.quote_count counts the posts quoting it that are neither deleted, hidden nor detached, whichever
-- statement changes them (create, delete, moderation's hide and restore, detach, erasure). A change of
-- quoted_post_id itself is only ever the SET NULL of the quoted post's own deletion: nothing left to count.
-- (Each statement of the body ends on a comment: prisma-sql check splits a dump at a semicolon that ends a line.)
CREATE FUNCTION posts_quote_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was boolean := false; --
  now_counted boolean := false; --
BEGIN
  IF TG_OP = 'INSERT' THEN
    now_counted := NEW.quoted_post_id IS NOT NULL AND NEW.deleted_at IS NULL AND NEW.hidden_at IS NULL AND NEW.quote_detached_at IS NULL; --
    IF now_counted THEN UPDATE posts SET quote_count = quote_count + 1 WHERE id = NEW.quoted_post_id; END IF; --
    RETURN NULL; --
  END IF; --
  IF TG_OP = 'DELETE' THEN
    was := OLD.quoted_post_id IS NOT NULL AND OLD.deleted_at IS NULL AND OLD.hidden_at IS NULL AND OLD.quote_detached_at IS NULL; --
    IF was THEN UPDATE posts SET quote_count = quote_count - 1 WHERE id = OLD.quoted_post_id; END IF; --
    RETURN NULL; --
  END IF; --
  IF NEW.quoted_post_id IS DISTINCT FROM OLD.quoted_post_id THEN RETURN NULL; END IF; --
  was := OLD.quoted_post_id IS NOT NULL AND OLD.deleted_at IS NULL AND OLD.hidden_at IS NULL AND OLD.quote_detached_at IS NULL; --
  now_counted := NEW.quoted_post_id IS NOT NULL AND NEW.deleted_at IS NULL AND NEW.hidden_at IS NULL AND NEW.quote_detached_at IS NULL; --
  IF was AND NOT now_counted THEN
    UPDATE posts SET quote_count = quote_count - 1 WHERE id = NEW.quoted_post_id; --
  ELSIF now_counted AND NOT was THEN
    UPDATE posts SET quote_count = quote_count + 1 WHERE id = NEW.quoted_post_id; --
  END IF; --
  RETURN NULL; --
END $$;

CREATE TRIGGER posts_quote_count_insert AFTER INSERT ON "posts"
  FOR EACH ROW WHEN (NEW.quoted_post_id IS NOT NULL) EXECUTE FUNCTION posts_quote_count();
CREATE TRIGGER posts_quote_count_update AFTER UPDATE OF deleted_at, hidden_at, quote_detached_at, quoted_post_id ON "posts"
  FOR EACH ROW WHEN (OLD.quoted_post_id IS NOT NULL) EXECUTE FUNCTION posts_quote_count();
CREATE TRIGGER posts_quote_count_delete AFTER DELETE ON "posts"
  FOR EACH ROW WHEN (OLD.quoted_post_id IS NOT NULL) EXECUTE FUNCTION posts_quote_count();
