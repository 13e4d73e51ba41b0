-- CreateTable
CREATE TABLE "game_events" (
    "id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "minute" INTEGER,
    "team_id" TEXT,
    "player_id" TEXT,
    "player2_id" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "amends" TEXT,
    "amended_by" TEXT,
    "voided" BOOLEAN NOT NULL DEFAULT false,
    "corrected" JSONB,
    "source" TEXT NOT NULL DEFAULT 'webhook',
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "game_events_event_id_key" ON "game_events"("event_id");

-- CreateIndex
CREATE INDEX "game_events_game_id_seq_id_idx" ON "game_events"("game_id", "seq", "id");

-- CreateIndex
CREATE INDEX "game_events_amends_idx" ON "game_events"("amends");

-- AddForeignKey
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
