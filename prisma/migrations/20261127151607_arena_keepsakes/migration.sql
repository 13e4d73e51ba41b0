-- CreateTable
CREATE TABLE "arena_keepsakes" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "game_id" TEXT NOT NULL,
    "check_in_id" UUID NOT NULL,
    "serial" INTEGER NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "arena_keepsakes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "arena_keepsakes_check_in_id_key" ON "arena_keepsakes"("check_in_id");

-- CreateIndex
CREATE INDEX "arena_keepsakes_user_id_idx" ON "arena_keepsakes"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "arena_keepsakes_game_id_serial_key" ON "arena_keepsakes"("game_id", "serial");

-- AddForeignKey
ALTER TABLE "arena_keepsakes" ADD CONSTRAINT "arena_keepsakes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_keepsakes" ADD CONSTRAINT "arena_keepsakes_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_keepsakes" ADD CONSTRAINT "arena_keepsakes_check_in_id_fkey" FOREIGN KEY ("check_in_id") REFERENCES "arena_check_ins"("id") ON DELETE CASCADE ON UPDATE CASCADE;
