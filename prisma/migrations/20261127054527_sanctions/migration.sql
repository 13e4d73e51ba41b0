-- CreateEnum
CREATE TYPE "ModerationActionKind" AS ENUM ('POSTING_SUSPENSION', 'TRADING_RESTRICTION', 'FULL_SUSPENSION', 'CONTENT_HIDDEN');

-- CreateEnum
CREATE TYPE "AppealStatus" AS ENUM ('PENDING', 'GRANTED', 'DENIED');

-- AlterTable
ALTER TABLE "posts" ADD COLUMN     "hidden_action_id" UUID;

-- AlterTable
ALTER TABLE "post_comments" ADD COLUMN     "hidden_action_id" UUID;

-- AlterTable
ALTER TABLE "reports" ADD COLUMN     "binder_id" UUID,
ADD COLUMN     "listing_id" UUID,
ADD COLUMN     "open" BOOLEAN DEFAULT true,
ADD COLUMN     "target_user_id" UUID;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "suspended_until" TIMESTAMPTZ(3),
ADD COLUMN     "trading_restricted_until" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "moderation_actions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" "ModerationActionKind" NOT NULL,
    "reason" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    "team_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ends_at" TIMESTAMPTZ(3),
    "lifted_at" TIMESTAMPTZ(3),
    "lifted_by" TEXT,
    "reviewed_at" TIMESTAMPTZ(3),
    "reviewed_by" TEXT,

    CONSTRAINT "moderation_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "moderation_appeals" (
    "id" UUID NOT NULL,
    "action_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "status" "AppealStatus" NOT NULL DEFAULT 'PENDING',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by" TEXT,
    "note" TEXT,

    CONSTRAINT "moderation_appeals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "moderation_actions_user_id_id_idx" ON "moderation_actions"("user_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "moderation_appeals_action_id_key" ON "moderation_appeals"("action_id");

-- CreateIndex
CREATE INDEX "moderation_appeals_status_created_at_idx" ON "moderation_appeals"("status", "created_at");

-- CreateIndex
CREATE INDEX "reports_target_user_id_idx" ON "reports"("target_user_id");

-- CreateIndex
CREATE INDEX "reports_listing_id_idx" ON "reports"("listing_id");

-- CreateIndex
CREATE INDEX "reports_binder_id_idx" ON "reports"("binder_id");

-- CreateIndex
CREATE INDEX "reports_reporter_id_id_idx" ON "reports"("reporter_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "reports_reporter_id_target_user_id_open_key" ON "reports"("reporter_id", "target_user_id", "open");

-- CreateIndex
CREATE UNIQUE INDEX "reports_reporter_id_listing_id_open_key" ON "reports"("reporter_id", "listing_id", "open");

-- CreateIndex
CREATE UNIQUE INDEX "reports_reporter_id_binder_id_open_key" ON "reports"("reporter_id", "binder_id", "open");

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_user_id_fkey" FOREIGN KEY ("target_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_binder_id_fkey" FOREIGN KEY ("binder_id") REFERENCES "binders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_action_id_fkey" FOREIGN KEY ("action_id") REFERENCES "moderation_actions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Reports already resolved are not open.
UPDATE "reports" SET "open" = NULL WHERE "resolved_at" IS NOT NULL;

-- A report names exactly one target (replaces the post-or-comment check).
ALTER TABLE "reports" DROP CONSTRAINT "reports_one_target";
ALTER TABLE "reports" ADD CONSTRAINT "reports_one_target" CHECK (num_nonnulls("post_id", "comment_id", "target_user_id", "listing_id", "binder_id") = 1);
-- "open" is true while the report is open and NULL once resolved (never false): the unique indexes on
-- (reporter_id, <target>, open) then allow one open report per reporter and target, any number resolved.
ALTER TABLE "reports" ADD CONSTRAINT "reports_open_marker" CHECK ("open" AND "resolved_at" IS NULL OR "open" IS NULL AND "resolved_at" IS NOT NULL);
-- A user cannot report themselves.
ALTER TABLE "reports" ADD CONSTRAINT "reports_not_self" CHECK ("target_user_id" IS DISTINCT FROM "reporter_id");

-- A sanction has an end; hidden content has none. A lift names who lifted it; a review who reviewed it.
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_ends" CHECK (("kind" = 'CONTENT_HIDDEN') = ("ends_at" IS NULL));
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_lifted" CHECK (("lifted_at" IS NULL) = ("lifted_by" IS NULL));
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_reviewed" CHECK (("reviewed_at" IS NULL) = ("reviewed_by" IS NULL));
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_reason_length" CHECK (char_length("reason") BETWEEN 1 AND 500);
-- An appeal's text is 1..2000 characters; a decided appeal names who decided and when, a pending one neither.
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_text_length" CHECK (char_length("text") BETWEEN 1 AND 2000);
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_decided" CHECK (("status" = 'PENDING') = ("decided_at" IS NULL) AND ("decided_at" IS NULL) = ("decided_by" IS NULL));

-- CreateIndex
CREATE INDEX "posts_hidden_action_id_idx" ON "posts"("hidden_action_id");

-- CreateIndex
CREATE INDEX "post_comments_hidden_action_id_idx" ON "post_comments"("hidden_action_id");

-- CreateIndex
CREATE INDEX "moderation_actions_reviewed_at_created_at_idx" ON "moderation_actions"("reviewed_at", "created_at");
