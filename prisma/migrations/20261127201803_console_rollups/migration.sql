-- CreateTable
CREATE TABLE "console_daily_metrics" (
    "metric" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "value" BIGINT NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_daily_metrics_pkey" PRIMARY KEY ("metric","day")
);

-- CreateTable
CREATE TABLE "cron_job_runs" (
    "job" TEXT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_status" INTEGER NOT NULL,
    "last_started_at" TIMESTAMPTZ(3) NOT NULL,
    "last_finished_at" TIMESTAMPTZ(3) NOT NULL,
    "last_duration_ms" INTEGER NOT NULL,
    "last_failed_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "cron_job_runs_pkey" PRIMARY KEY ("job")
);

-- CreateIndex
CREATE INDEX "wallet_transactions_reason_created_at_idx" ON "wallet_transactions"("reason", "created_at");

-- CreateIndex
CREATE INDEX "reports_created_at_idx" ON "reports"("created_at");

-- CreateIndex
CREATE INDEX "quiz_sessions_day_idx" ON "quiz_sessions"("day");

-- CreateIndex
CREATE INDEX "arena_check_ins_day_idx" ON "arena_check_ins"("day");

-- CreateIndex
CREATE INDEX "rep_entries_created_at_idx" ON "rep_entries"("created_at");

-- CreateIndex
CREATE INDEX "users_created_at_idx" ON "users"("created_at");
