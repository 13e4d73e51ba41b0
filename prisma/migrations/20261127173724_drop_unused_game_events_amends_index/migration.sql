-- DropIndex
DROP INDEX "game_events_amends_idx";
