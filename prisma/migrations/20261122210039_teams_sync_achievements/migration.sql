-- CreateEnum
CREATE TYPE "SyncStatus" AS ENUM ('running', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "team_achievements" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "icon" TEXT,
    "season" TEXT,
    "awarded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "team_achievements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sync_runs" (
    "id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "actor" TEXT,
    "status" "SyncStatus" NOT NULL DEFAULT 'running',
    "summary" JSONB,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "sync_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "team_achievements_team_id_awarded_at_idx" ON "team_achievements"("team_id", "awarded_at");

-- CreateIndex
CREATE UNIQUE INDEX "team_achievements_team_id_key_key" ON "team_achievements"("team_id", "key");

-- CreateIndex
CREATE INDEX "sync_runs_started_at_id_idx" ON "sync_runs"("started_at" DESC, "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_received_at_idx" ON "webhook_deliveries"("received_at");

-- CreateIndex
CREATE INDEX "teams_rank_id_idx" ON "teams"("rank", "id");

-- CreateIndex
CREATE INDEX "teams_fan_count_id_idx" ON "teams"("fan_count" DESC, "id");

-- AddForeignKey
ALTER TABLE "team_achievements" ADD CONSTRAINT "team_achievements_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
