-- CreateEnum
CREATE TYPE "NotificationType" AS ENUM ('GAME_ALERT', 'RATING', 'MILESTONE');

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "type" "NotificationType" NOT NULL,
    "cause_key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMPTZ(3),
    "archived_at" TIMESTAMPTZ(3),

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notifications_user_id_id_idx" ON "notifications"("user_id", "id" DESC);

-- CreateIndex
CREATE INDEX "notifications_user_id_archived_at_id_idx" ON "notifications"("user_id", "archived_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notifications_user_id_read_at_id_idx" ON "notifications"("user_id", "read_at", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "notifications_user_id_cause_key_key" ON "notifications"("user_id", "cause_key");

-- CreateIndex
CREATE INDEX "games_status_starts_at_idx" ON "games"("status", "starts_at");

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
