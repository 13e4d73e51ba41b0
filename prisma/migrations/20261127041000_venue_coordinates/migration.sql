-- AlterTable
ALTER TABLE "games" ADD COLUMN     "venue_latitude" DOUBLE PRECISION,
ADD COLUMN     "venue_longitude" DOUBLE PRECISION;

-- A venue's position is whole (both coordinates or neither) and on the globe.
ALTER TABLE "games" ADD CONSTRAINT "games_venue_position" CHECK (
  (venue_latitude IS NULL AND venue_longitude IS NULL)
  OR (venue_latitude BETWEEN -90 AND 90 AND venue_longitude BETWEEN -180 AND 180)
);
