-- CreateEnum
CREATE TYPE "PostVisibility" AS ENUM ('PUBLIC', 'PRIVATE');

-- CreateEnum
CREATE TYPE "ReportReason" AS ENUM ('SPAM', 'HARASSMENT', 'HATE', 'VIOLENCE', 'SEXUAL', 'MISINFORMATION', 'OTHER');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "NotificationType" ADD VALUE 'REPLY';
ALTER TYPE "NotificationType" ADD VALUE 'REACTION';
ALTER TYPE "NotificationType" ADD VALUE 'POST_PUBLISHED';
ALTER TYPE "NotificationType" ADD VALUE 'TEAM_POST';

-- CreateTable
CREATE TABLE "posts" (
    "id" UUID NOT NULL,
    "author_id" UUID NOT NULL,
    "author_team_id" TEXT,
    "team_id" TEXT,
    "content" TEXT NOT NULL DEFAULT '',
    "image_url" TEXT,
    "media" JSONB,
    "collectible" JSONB,
    "lineup" JSONB,
    "visibility" "PostVisibility" NOT NULL DEFAULT 'PUBLIC',
    "publish_at" TIMESTAMPTZ(3) NOT NULL,
    "scheduled" BOOLEAN NOT NULL DEFAULT false,
    "announced_at" TIMESTAMPTZ(3),
    "idempotency_key" TEXT,
    "comment_count" INTEGER NOT NULL DEFAULT 0,
    "reaction_counts" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "edited_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),
    "hidden_at" TIMESTAMPTZ(3),
    "hidden_by" TEXT,

    CONSTRAINT "posts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "post_edits" (
    "id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "content" TEXT NOT NULL,
    "edited_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_edits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "post_comments" (
    "id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "author_id" UUID NOT NULL,
    "parent_id" UUID,
    "content" TEXT NOT NULL,
    "reply_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    "hidden_at" TIMESTAMPTZ(3),
    "hidden_by" TEXT,

    CONSTRAINT "post_comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "post_reactions" (
    "post_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_reactions_pkey" PRIMARY KEY ("post_id","user_id")
);

-- CreateTable
CREATE TABLE "post_polls" (
    "post_id" UUID NOT NULL,
    "options" TEXT[],
    "multiple" BOOLEAN NOT NULL DEFAULT false,
    "closes_at" TIMESTAMPTZ(3) NOT NULL,
    "vote_counts" INTEGER[],
    "voters_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "post_polls_pkey" PRIMARY KEY ("post_id")
);

-- CreateTable
CREATE TABLE "poll_voters" (
    "post_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "choices" INTEGER[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "poll_voters_pkey" PRIMARY KEY ("post_id","user_id")
);

-- CreateTable
CREATE TABLE "reports" (
    "id" UUID NOT NULL,
    "reporter_id" UUID NOT NULL,
    "post_id" UUID,
    "comment_id" UUID,
    "reason" "ReportReason" NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),
    "resolved_by" TEXT,
    "resolution" TEXT,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "posting_suspensions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lifted_at" TIMESTAMPTZ(3),

    CONSTRAINT "posting_suspensions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "posts_publish_at_id_idx" ON "posts"("publish_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "posts_team_id_publish_at_id_idx" ON "posts"("team_id", "publish_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "posts_author_team_id_publish_at_id_idx" ON "posts"("author_team_id", "publish_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "posts_author_id_publish_at_id_idx" ON "posts"("author_id", "publish_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "posts_announced_at_publish_at_idx" ON "posts"("announced_at", "publish_at");

-- CreateIndex
CREATE UNIQUE INDEX "posts_author_id_idempotency_key_key" ON "posts"("author_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "post_edits_post_id_id_idx" ON "post_edits"("post_id", "id");

-- CreateIndex
CREATE INDEX "post_comments_post_id_parent_id_id_idx" ON "post_comments"("post_id", "parent_id", "id");

-- CreateIndex
CREATE INDEX "post_comments_author_id_id_idx" ON "post_comments"("author_id", "id");

-- CreateIndex
CREATE INDEX "post_reactions_user_id_idx" ON "post_reactions"("user_id");

-- CreateIndex
CREATE INDEX "poll_voters_user_id_idx" ON "poll_voters"("user_id");

-- CreateIndex
CREATE INDEX "reports_resolved_at_created_at_idx" ON "reports"("resolved_at", "created_at");

-- CreateIndex
CREATE INDEX "reports_post_id_idx" ON "reports"("post_id");

-- CreateIndex
CREATE INDEX "reports_comment_id_idx" ON "reports"("comment_id");

-- CreateIndex
CREATE UNIQUE INDEX "reports_reporter_id_post_id_key" ON "reports"("reporter_id", "post_id");

-- CreateIndex
CREATE UNIQUE INDEX "reports_reporter_id_comment_id_key" ON "reports"("reporter_id", "comment_id");

-- CreateIndex
CREATE INDEX "posting_suspensions_user_id_until_idx" ON "posting_suspensions"("user_id", "until");

-- AddForeignKey
ALTER TABLE "posts" ADD CONSTRAINT "posts_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "posts" ADD CONSTRAINT "posts_author_team_id_fkey" FOREIGN KEY ("author_team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "posts" ADD CONSTRAINT "posts_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_edits" ADD CONSTRAINT "post_edits_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_comments" ADD CONSTRAINT "post_comments_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_comments" ADD CONSTRAINT "post_comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_comments" ADD CONSTRAINT "post_comments_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "post_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_reactions" ADD CONSTRAINT "post_reactions_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_reactions" ADD CONSTRAINT "post_reactions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_polls" ADD CONSTRAINT "post_polls_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_voters" ADD CONSTRAINT "poll_voters_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "post_polls"("post_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_voters" ADD CONSTRAINT "poll_voters_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_fkey" FOREIGN KEY ("reporter_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "post_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "posting_suspensions" ADD CONSTRAINT "posting_suspensions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Checks Prisma cannot declare
ALTER TABLE "reports" ADD CONSTRAINT "reports_one_target" CHECK (num_nonnulls("post_id", "comment_id") = 1);
ALTER TABLE "posts" ADD CONSTRAINT "posts_comment_count_nonnegative" CHECK ("comment_count" >= 0);
ALTER TABLE "post_comments" ADD CONSTRAINT "post_comments_reply_count_nonnegative" CHECK ("reply_count" >= 0);
ALTER TABLE "post_polls" ADD CONSTRAINT "post_polls_voters_nonnegative" CHECK ("voters_count" >= 0);
