-- CreateEnum
CREATE TYPE "TagTrendStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED');

-- AlterEnum
ALTER TYPE "NotificationType" ADD VALUE 'MENTION';

-- CreateTable
CREATE TABLE "tags" (
    "tag" VARCHAR(64) NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "trend_status" "TagTrendStatus" NOT NULL DEFAULT 'PENDING',
    "reviewed_at" TIMESTAMPTZ(3),
    "reviewed_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("tag")
);

-- CreateTable
CREATE TABLE "post_tags" (
    "post_id" UUID NOT NULL,
    "tag" VARCHAR(64) NOT NULL,
    "author_id" UUID NOT NULL,
    "publish_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "post_tags_pkey" PRIMARY KEY ("post_id","tag")
);

-- CreateTable
CREATE TABLE "comment_tags" (
    "comment_id" UUID NOT NULL,
    "tag" VARCHAR(64) NOT NULL,
    "post_id" UUID NOT NULL,
    "author_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_tags_pkey" PRIMARY KEY ("comment_id","tag")
);

-- CreateTable
CREATE TABLE "post_mentions" (
    "post_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_mentions_pkey" PRIMARY KEY ("post_id","user_id")
);

-- CreateTable
CREATE TABLE "comment_mentions" (
    "comment_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_mentions_pkey" PRIMARY KEY ("comment_id","user_id")
);

-- CreateTable
CREATE TABLE "tag_follows" (
    "user_id" UUID NOT NULL,
    "tag" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tag_follows_pkey" PRIMARY KEY ("user_id","tag")
);

-- CreateIndex
CREATE INDEX "tags_trend_status_tag_idx" ON "tags"("trend_status", "tag");

-- CreateIndex
CREATE INDEX "post_tags_tag_publish_at_post_id_idx" ON "post_tags"("tag", "publish_at" DESC, "post_id" DESC);

-- CreateIndex
CREATE INDEX "post_tags_publish_at_tag_author_id_idx" ON "post_tags"("publish_at", "tag", "author_id");

-- CreateIndex
CREATE INDEX "comment_tags_created_at_tag_author_id_idx" ON "comment_tags"("created_at", "tag", "author_id");

-- CreateIndex
CREATE INDEX "comment_tags_author_id_idx" ON "comment_tags"("author_id");

-- CreateIndex
CREATE INDEX "post_mentions_user_id_idx" ON "post_mentions"("user_id");

-- CreateIndex
CREATE INDEX "comment_mentions_user_id_idx" ON "comment_mentions"("user_id");

-- CreateIndex
CREATE INDEX "tag_follows_user_id_created_at_tag_idx" ON "tag_follows"("user_id", "created_at" DESC, "tag" DESC);

-- CreateIndex
CREATE INDEX "tag_follows_tag_idx" ON "tag_follows"("tag");

-- CreateIndex
CREATE INDEX "post_reactions_created_at_idx" ON "post_reactions"("created_at");

-- AddForeignKey
ALTER TABLE "post_tags" ADD CONSTRAINT "post_tags_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_tags" ADD CONSTRAINT "post_tags_tag_fkey" FOREIGN KEY ("tag") REFERENCES "tags"("tag") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_tags" ADD CONSTRAINT "comment_tags_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "post_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_tags" ADD CONSTRAINT "comment_tags_tag_fkey" FOREIGN KEY ("tag") REFERENCES "tags"("tag") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_mentions" ADD CONSTRAINT "post_mentions_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_mentions" ADD CONSTRAINT "post_mentions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "post_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tag_follows" ADD CONSTRAINT "tag_follows_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tag_follows" ADD CONSTRAINT "tag_follows_tag_fkey" FOREIGN KEY ("tag") REFERENCES "tags"("tag") ON DELETE CASCADE ON UPDATE CASCADE;

-- A scheduled post moved (or any change of publish_at): its tags' copy follows, so the tag page's keyset order is
-- the post's (lib/tags, docs/domains/tags.md).
CREATE FUNCTION posts_publish_at_tags() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE post_tags SET publish_at = NEW.publish_at WHERE post_id = NEW.id; RETURN NULL; END $$;
CREATE TRIGGER posts_publish_at_tags AFTER UPDATE OF publish_at ON posts
  FOR EACH ROW WHEN (NEW.publish_at IS DISTINCT FROM OLD.publish_at) EXECUTE FUNCTION posts_publish_at_tags();

-- MENTION is a community notification: users.notify_community is its in-app switch too (lib/push SETTING_TYPES).
CREATE OR REPLACE FUNCTION users_notify_preferences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notification_preferences SET in_app = true, updated_at = now()
  WHERE user_id = NEW.id AND NOT in_app AND (
       (NEW.notify_teams AND NOT OLD.notify_teams AND type IN ('GAME_ALERT', 'RATING', 'TEAM_POST'))
    OR (NEW.notify_milestones AND NOT OLD.notify_milestones AND type IN ('MILESTONE', 'STREAK_AT_RISK'))
    OR (NEW.notify_community AND NOT OLD.notify_community AND type IN ('REPLY', 'REACTION', 'FOLLOW', 'FOLLOW_REQUEST', 'MENTION'))); RETURN NULL; END $$;
