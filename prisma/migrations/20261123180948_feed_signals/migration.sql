-- CreateEnum
CREATE TYPE "FeedSignalType" AS ENUM ('impression', 'view', 'click', 'dwell', 'share', 'like', 'unlike', 'save', 'hide');

-- CreateEnum
CREATE TYPE "FeedItemType" AS ENUM ('post', 'team', 'game', 'player', 'league', 'reward', 'quest', 'user');

-- CreateTable
CREATE TABLE "feed_signals" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "type" "FeedSignalType" NOT NULL,
    "item_type" "FeedItemType" NOT NULL,
    "item_id" TEXT NOT NULL,
    "team_id" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "duration_ms" INTEGER,
    "surface" TEXT,
    "position" INTEGER,
    "event_id" UUID,

    CONSTRAINT "feed_signals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "feed_signals_received_at_idx" ON "feed_signals"("received_at");

-- CreateIndex
CREATE UNIQUE INDEX "feed_signals_user_id_event_id_key" ON "feed_signals"("user_id", "event_id");

-- AddForeignKey
ALTER TABLE "feed_signals" ADD CONSTRAINT "feed_signals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
