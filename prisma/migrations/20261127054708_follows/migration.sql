-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "NotificationType" ADD VALUE 'FOLLOW';
ALTER TYPE "NotificationType" ADD VALUE 'FOLLOW_REQUEST';

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "follower_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "following_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "user_follows" (
    "follower_id" UUID NOT NULL,
    "followee_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_follows_pkey" PRIMARY KEY ("follower_id","followee_id")
);

-- CreateTable
CREATE TABLE "follow_requests" (
    "requester_id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "follow_requests_pkey" PRIMARY KEY ("requester_id","target_id")
);

-- CreateIndex
CREATE INDEX "user_follows_followee_id_created_at_follower_id_idx" ON "user_follows"("followee_id", "created_at" DESC, "follower_id" DESC);

-- CreateIndex
CREATE INDEX "user_follows_follower_id_created_at_followee_id_idx" ON "user_follows"("follower_id", "created_at" DESC, "followee_id" DESC);

-- CreateIndex
CREATE INDEX "follow_requests_target_id_created_at_requester_id_idx" ON "follow_requests"("target_id", "created_at" DESC, "requester_id" DESC);

-- AddForeignKey
ALTER TABLE "user_follows" ADD CONSTRAINT "user_follows_follower_id_fkey" FOREIGN KEY ("follower_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_follows" ADD CONSTRAINT "user_follows_followee_id_fkey" FOREIGN KEY ("followee_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follow_requests" ADD CONSTRAINT "follow_requests_requester_id_fkey" FOREIGN KEY ("requester_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follow_requests" ADD CONSTRAINT "follow_requests_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Nobody follows or asks to follow themselves; counts never go below zero.
ALTER TABLE "user_follows" ADD CONSTRAINT "user_follows_not_self" CHECK (follower_id <> followee_id);
ALTER TABLE "follow_requests" ADD CONSTRAINT "follow_requests_not_self" CHECK (requester_id <> target_id);
ALTER TABLE "users" ADD CONSTRAINT "users_follow_counts_nonnegative" CHECK (follower_count >= 0 AND following_count >= 0);

-- follower_count and following_count follow user_follows exactly: every statement that inserts or deletes follows
-- (a follow, an unfollow, an accepted request, a block, a deleted account's cascade) adjusts the counts of the users
-- on both sides in the same transaction. One UPDATE per statement (rows summed per user), after taking the users'
-- rows in id order: the order lib/follows locks them in, so concurrent follows, unfollows and blocks never deadlock.
-- (Each statement of the body ends on a comment: prisma-sql check splits a dump at a semicolon that ends a line.)
CREATE FUNCTION user_follows_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta int := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END; -- inserted rows add, deleted rows subtract
BEGIN
  PERFORM 1 FROM users WHERE id IN (SELECT follower_id FROM changed UNION SELECT followee_id FROM changed) ORDER BY id FOR NO KEY UPDATE; -- id order
  UPDATE users u
  SET follower_count = u.follower_count + delta * c.followers, following_count = u.following_count + delta * c.following
  FROM (
    SELECT id, sum(followers)::int AS followers, sum(following)::int AS following
    FROM (SELECT followee_id AS id, 1 AS followers, 0 AS following FROM changed
          UNION ALL
          SELECT follower_id, 0, 1 FROM changed) d
    GROUP BY id
  ) c
  WHERE u.id = c.id; -- one UPDATE per statement, whatever its rows
  RETURN NULL; -- an AFTER trigger's result is ignored
END $$;

CREATE TRIGGER user_follows_counts_insert AFTER INSERT ON "user_follows"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION user_follows_counts();
CREATE TRIGGER user_follows_counts_delete AFTER DELETE ON "user_follows"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION user_follows_counts();
