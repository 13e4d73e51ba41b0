-- Feed signals move from a row per event to a row per batch (the batch's events as one jsonb array): PostgreSQL
-- stored a batch of 50 as 50 heap tuples, 150 index entries and 50 foreign-key checks; now one tuple, three index
-- entries and one check.

-- CreateTable
CREATE TABLE "feed_signal_batches" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "batch_key" UUID,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "event_count" INTEGER NOT NULL,
    "events" JSONB NOT NULL,

    CONSTRAINT "feed_signal_batches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "feed_signal_batches_received_at_idx" ON "feed_signal_batches"("received_at");

-- CreateIndex
CREATE UNIQUE INDEX "feed_signal_batches_user_id_batch_key_key" ON "feed_signal_batches"("user_id", "batch_key");

-- AddForeignKey
ALTER TABLE "feed_signal_batches" ADD CONSTRAINT "feed_signal_batches_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The stored signals, batch by batch: a batch's rows were written by one statement, so they share user_id and
-- received_at (the transaction's timestamp).
INSERT INTO "feed_signal_batches" ("id", "user_id", "received_at", "event_count", "events")
SELECT gen_random_uuid(), "user_id", "received_at", count(*),
       jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
         'type', "type", 'itemType', "item_type", 'itemId', "item_id", 'teamId', "team_id",
         'at', to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'durationMs', "duration_ms", 'surface', "surface", 'position', "position", 'eventId', "event_id")) ORDER BY "id")
FROM "feed_signals"
GROUP BY "user_id", "received_at";

-- DropForeignKey
ALTER TABLE "feed_signals" DROP CONSTRAINT "feed_signals_user_id_fkey";

-- DropTable
DROP TABLE "feed_signals";

-- One row per stored event, for readers (SQL, exports): the batch's events in the order they were sent.
CREATE VIEW "feed_signal_events" AS
SELECT b."id" AS "batch_id", b."user_id", b."received_at", (e."n" - 1)::int AS "index_in_batch",
       x."type", x."itemType" AS "item_type", x."itemId" AS "item_id", x."teamId" AS "team_id", x."at" AS "occurred_at",
       x."durationMs" AS "duration_ms", x."surface", x."position", x."eventId" AS "event_id"
FROM "feed_signal_batches" b
CROSS JOIN LATERAL jsonb_array_elements(b."events") WITH ORDINALITY AS e("event", "n")
CROSS JOIN LATERAL jsonb_to_record(e."event") AS x(
    "type" "FeedSignalType", "itemType" "FeedItemType", "itemId" TEXT, "teamId" TEXT, "at" TIMESTAMPTZ(3),
    "durationMs" INTEGER, "surface" TEXT, "position" INTEGER, "eventId" UUID);
