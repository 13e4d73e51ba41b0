-- AlterTable
ALTER TABLE "games" ADD COLUMN     "keepsake_serial" INTEGER NOT NULL DEFAULT 0;

-- Serials given so far continue from the highest one each game holds.
UPDATE "games" g SET "keepsake_serial" = k.last
FROM (SELECT "game_id", max("serial") AS last FROM "arena_keepsakes" GROUP BY "game_id") k
WHERE k."game_id" = g."id";
