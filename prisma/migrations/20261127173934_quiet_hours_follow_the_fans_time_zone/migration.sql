-- AlterTable
ALTER TABLE "push_quiet_hours" ALTER COLUMN "time_zone" DROP NOT NULL;
