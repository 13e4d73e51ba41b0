-- CreateTable
CREATE TABLE "feature_flags" (
    "key" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rollout_bps" INTEGER NOT NULL DEFAULT 0,
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feature_flags_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "kill_switches" (
    "feature" TEXT NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "scoped" BOOLEAN NOT NULL DEFAULT false,
    "user_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "message" TEXT,
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "kill_switches_pkey" PRIMARY KEY ("feature")
);

-- CreateTable
CREATE TABLE "config_settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "config_settings_pkey" PRIMARY KEY ("key")
);

-- Rollout is a share in basis points; a scoped pause names at most 1,000 users.
ALTER TABLE "feature_flags" ADD CONSTRAINT "feature_flags_rollout_bps_check" CHECK ("rollout_bps" BETWEEN 0 AND 10000);
ALTER TABLE "feature_flags" ADD CONSTRAINT "feature_flags_key_check" CHECK ("key" ~ '^[a-z][a-z0-9_.]{0,63}$');
ALTER TABLE "kill_switches" ADD CONSTRAINT "kill_switches_user_ids_check" CHECK (cardinality("user_ids") <= 1000);
