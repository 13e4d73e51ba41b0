-- CreateEnum
CREATE TYPE "RewardKind" AS ENUM ('redeem', 'milestone');

-- CreateEnum
CREATE TYPE "RewardMilestone" AS ENUM ('rep_earned', 'quests_completed', 'streak_days');

-- CreateEnum
CREATE TYPE "GuessSessionStatus" AS ENUM ('active', 'won', 'lost');

-- CreateEnum
CREATE TYPE "QuestKind" AS ENUM ('quiz', 'check_in', 'visit', 'multi_step');

-- CreateEnum
CREATE TYPE "QuestScope" AS ENUM ('global', 'team', 'pass');

-- CreateEnum
CREATE TYPE "QuestCadence" AS ENUM ('daily', 'once');

-- CreateEnum
CREATE TYPE "QuestStepCondition" AS ENUM ('follows_three_teams', 'joined_team', 'handle_set', 'display_name_set', 'avatar_set', 'arena_check_in', 'game_rated');

-- CreateEnum
CREATE TYPE "QuizSessionStatus" AS ENUM ('active', 'completed', 'forfeited');

-- CreateEnum
CREATE TYPE "PassKind" AS ENUM ('global', 'event');

-- DropForeignKey
ALTER TABLE "quest_completions" DROP CONSTRAINT "quest_completions_user_id_fkey";

-- DropForeignKey
ALTER TABLE "quest_completions" DROP CONSTRAINT "quest_completions_quest_id_fkey";

-- DropIndex
DROP INDEX "reward_claims_user_id_idx";

-- AlterTable
ALTER TABLE "rewards" ADD COLUMN     "kind" "RewardKind" NOT NULL DEFAULT 'redeem',
ADD COLUMN     "milestone" "RewardMilestone",
ADD COLUMN     "milestone_value" INTEGER,
ADD COLUMN     "per_user_limit" INTEGER,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "reward_claims" ADD COLUMN     "claim_key" TEXT,
ADD COLUMN     "cost_rep" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "kind" "RewardKind" NOT NULL DEFAULT 'redeem',
ADD COLUMN     "rep_entry_id" UUID,
ADD COLUMN     "request_hash" TEXT;

-- AlterTable
ALTER TABLE "quests" ADD COLUMN     "available_from" TIMESTAMPTZ(3),
ADD COLUMN     "available_until" TIMESTAMPTZ(3),
ADD COLUMN     "cadence" "QuestCadence" NOT NULL DEFAULT 'once',
ADD COLUMN     "kind" "QuestKind" NOT NULL DEFAULT 'multi_step',
ADD COLUMN     "pass_id" TEXT,
ADD COLUMN     "quiz_length" INTEGER,
ADD COLUMN     "quiz_seconds" INTEGER,
ADD COLUMN     "rep_source" "RepSource" NOT NULL DEFAULT 'serviceDirect',
ADD COLUMN     "retired_at" TIMESTAMPTZ(3),
ADD COLUMN     "scope" "QuestScope" NOT NULL DEFAULT 'global';

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "quest_points" INTEGER NOT NULL DEFAULT 0;


-- CreateTable
CREATE TABLE "game_lineup_slots" (
    "game_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "position" TEXT,
    "slot" INTEGER NOT NULL,

    CONSTRAINT "game_lineup_slots_pkey" PRIMARY KEY ("game_id","player_id")
);

-- CreateTable
CREATE TABLE "game_ratings" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "game_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "game_ratings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_rating_scores" (
    "rating_id" UUID NOT NULL,
    "game_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "score" INTEGER NOT NULL,

    CONSTRAINT "game_rating_scores_pkey" PRIMARY KEY ("rating_id","player_id")
);

-- CreateTable
CREATE TABLE "guess_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "team_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "status" "GuessSessionStatus" NOT NULL DEFAULT 'active',
    "clues_revealed" INTEGER NOT NULL DEFAULT 1,
    "guesses" TEXT[],
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "guess_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quest_steps" (
    "id" TEXT NOT NULL,
    "quest_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "condition" "QuestStepCondition",

    CONSTRAINT "quest_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quest_progress" (
    "user_id" UUID NOT NULL,
    "quest_id" TEXT NOT NULL,
    "period_key" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "rep_awarded" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "quest_progress_pkey" PRIMARY KEY ("user_id","quest_id","period_key")
);

-- CreateTable
CREATE TABLE "quest_step_progress" (
    "user_id" UUID NOT NULL,
    "step_id" TEXT NOT NULL,
    "period_key" TEXT NOT NULL,
    "completed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quest_step_progress_pkey" PRIMARY KEY ("user_id","step_id","period_key")
);

-- CreateTable
CREATE TABLE "quiz_questions" (
    "id" TEXT NOT NULL,
    "quest_id" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "choices" TEXT[],
    "answer_index" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quiz_questions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quiz_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "quest_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status" "QuizSessionStatus" NOT NULL DEFAULT 'active',
    "question_ids" TEXT[],
    "current_index" INTEGER NOT NULL DEFAULT 0,
    "correct_count" INTEGER NOT NULL DEFAULT 0,
    "question_shown_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "rep_awarded" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "quiz_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quiz_answers" (
    "session_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "question_id" TEXT NOT NULL,
    "answer_index" INTEGER,
    "correct" BOOLEAN NOT NULL,
    "answered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quiz_answers_pkey" PRIMARY KEY ("session_id","position")
);

-- CreateTable
CREATE TABLE "arena_check_ins" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "team_id" TEXT NOT NULL,
    "game_id" TEXT,
    "day" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "arena_check_ins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "passes" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "PassKind" NOT NULL,
    "game_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "passes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_passes" (
    "user_id" UUID NOT NULL,
    "pass_id" TEXT NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "user_passes_pkey" PRIMARY KEY ("user_id","pass_id")
);

-- CreateTable
CREATE TABLE "user_streaks" (
    "user_id" UUID NOT NULL,
    "current" INTEGER NOT NULL DEFAULT 0,
    "longest" INTEGER NOT NULL DEFAULT 0,
    "last_day" DATE NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "user_streaks_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "game_lineup_slots_game_id_slot_key" ON "game_lineup_slots"("game_id", "slot");

-- CreateIndex
CREATE UNIQUE INDEX "game_ratings_user_id_game_id_key" ON "game_ratings"("user_id", "game_id");

-- CreateIndex
CREATE INDEX "game_rating_scores_game_id_player_id_idx" ON "game_rating_scores"("game_id", "player_id");

-- CreateIndex
CREATE INDEX "guess_sessions_user_id_started_at_idx" ON "guess_sessions"("user_id", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "quest_steps_quest_id_position_key" ON "quest_steps"("quest_id", "position");

-- CreateIndex
CREATE INDEX "quest_progress_user_id_completed_at_quest_id_idx" ON "quest_progress"("user_id", "completed_at" DESC, "quest_id" DESC);

-- CreateIndex
CREATE INDEX "quiz_questions_quest_id_active_idx" ON "quiz_questions"("quest_id", "active");

-- CreateIndex
CREATE UNIQUE INDEX "quiz_sessions_user_id_quest_id_day_key" ON "quiz_sessions"("user_id", "quest_id", "day");

-- CreateIndex
CREATE INDEX "arena_check_ins_team_id_day_idx" ON "arena_check_ins"("team_id", "day");

-- CreateIndex
CREATE UNIQUE INDEX "arena_check_ins_user_id_team_id_day_key" ON "arena_check_ins"("user_id", "team_id", "day");

-- CreateIndex
CREATE UNIQUE INDEX "passes_slug_key" ON "passes"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "reward_claims_rep_entry_id_key" ON "reward_claims"("rep_entry_id");

-- CreateIndex
CREATE INDEX "reward_claims_user_id_claimed_at_idx" ON "reward_claims"("user_id", "claimed_at" DESC);

-- CreateIndex
CREATE INDEX "reward_claims_user_id_reward_id_idx" ON "reward_claims"("user_id", "reward_id");

-- CreateIndex
CREATE UNIQUE INDEX "reward_claims_user_id_claim_key_key" ON "reward_claims"("user_id", "claim_key");

-- CreateIndex
CREATE UNIQUE INDEX "reward_claims_user_id_idempotency_key_key" ON "reward_claims"("user_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "quests_active_scope_idx" ON "quests"("active", "scope");

-- CreateIndex
CREATE INDEX "quests_team_id_kind_idx" ON "quests"("team_id", "kind");

-- AddForeignKey
ALTER TABLE "game_lineup_slots" ADD CONSTRAINT "game_lineup_slots_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_lineup_slots" ADD CONSTRAINT "game_lineup_slots_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_ratings" ADD CONSTRAINT "game_ratings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_ratings" ADD CONSTRAINT "game_ratings_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_rating_scores" ADD CONSTRAINT "game_rating_scores_rating_id_fkey" FOREIGN KEY ("rating_id") REFERENCES "game_ratings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "guess_sessions" ADD CONSTRAINT "guess_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "guess_sessions" ADD CONSTRAINT "guess_sessions_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "guess_sessions" ADD CONSTRAINT "guess_sessions_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quests" ADD CONSTRAINT "quests_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quests" ADD CONSTRAINT "quests_pass_id_fkey" FOREIGN KEY ("pass_id") REFERENCES "passes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quest_steps" ADD CONSTRAINT "quest_steps_quest_id_fkey" FOREIGN KEY ("quest_id") REFERENCES "quests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quest_progress" ADD CONSTRAINT "quest_progress_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quest_progress" ADD CONSTRAINT "quest_progress_quest_id_fkey" FOREIGN KEY ("quest_id") REFERENCES "quests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quest_step_progress" ADD CONSTRAINT "quest_step_progress_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quest_step_progress" ADD CONSTRAINT "quest_step_progress_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "quest_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quiz_questions" ADD CONSTRAINT "quiz_questions_quest_id_fkey" FOREIGN KEY ("quest_id") REFERENCES "quests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quiz_sessions" ADD CONSTRAINT "quiz_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quiz_sessions" ADD CONSTRAINT "quiz_sessions_quest_id_fkey" FOREIGN KEY ("quest_id") REFERENCES "quests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quiz_answers" ADD CONSTRAINT "quiz_answers_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "quiz_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_check_ins" ADD CONSTRAINT "arena_check_ins_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_check_ins" ADD CONSTRAINT "arena_check_ins_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_check_ins" ADD CONSTRAINT "arena_check_ins_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "passes" ADD CONSTRAINT "passes_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_passes" ADD CONSTRAINT "user_passes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_passes" ADD CONSTRAINT "user_passes_pass_id_fkey" FOREIGN KEY ("pass_id") REFERENCES "passes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_streaks" ADD CONSTRAINT "user_streaks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Carry quest history over: every earlier completion was of a once-only quest or a daily one, keyed by its UTC day.
INSERT INTO "quest_progress" ("user_id", "quest_id", "period_key", "started_at", "completed_at", "rep_awarded")
SELECT c."user_id", c."quest_id",
       CASE WHEN q."is_daily" THEN to_char(c."completed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') ELSE 'once' END,
       c."completed_at", c."completed_at", q."rep_reward"
FROM "quest_completions" c JOIN "quests" q ON q."id" = c."quest_id";

-- DropTable
DROP TABLE "quest_completions";

UPDATE "quests" SET "cadence" = 'daily' WHERE "is_daily";
UPDATE "quests" SET "scope" = 'team' WHERE "team_id" IS NOT NULL;

-- Balances, stock and awards can never go negative; a quiz answers inside its choices.
ALTER TABLE "users" ADD CONSTRAINT "users_rep_balance_nonnegative" CHECK ("rep_balance" >= 0);
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_stock_nonnegative" CHECK ("stock" IS NULL OR "stock" >= 0);
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_cost_nonnegative" CHECK ("cost_rep" >= 0);
ALTER TABLE "quests" ADD CONSTRAINT "quests_rep_reward_nonnegative" CHECK ("rep_reward" >= 0);
ALTER TABLE "quiz_questions" ADD CONSTRAINT "quiz_questions_answer_in_choices" CHECK ("answer_index" >= 0 AND "answer_index" < cardinality("choices"));
ALTER TABLE "game_rating_scores" ADD CONSTRAINT "game_rating_scores_score_range" CHECK ("score" BETWEEN 1 AND 10);
