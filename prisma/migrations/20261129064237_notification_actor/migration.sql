-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "actor_id" UUID;

-- Backfill: the payload's actor (as the push outbox's trigger reads it), else a post notification's author.
UPDATE "notifications" SET "actor_id" = ("payload"->'actor'->>'id')::uuid
WHERE "payload"->'actor'->>'id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
UPDATE "notifications" n SET "actor_id" = p."author_id"
FROM "posts" p
WHERE n."type" IN ('TEAM_POST', 'POST_PUBLISHED') AND n."actor_id" IS NULL
  AND n."payload"->>'postId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  AND p."id" = (n."payload"->>'postId')::uuid;

-- CreateIndex
CREATE INDEX "notifications_actor_id_idx" ON "notifications"("actor_id");
