-- CreateIndex
CREATE INDEX "leagues_source_provider_id_idx" ON "leagues"("source", "provider_id");

-- CreateIndex
CREATE INDEX "teams_source_provider_id_idx" ON "teams"("source", "provider_id");

-- CreateIndex
CREATE INDEX "team_follows_user_id_created_at_team_id_idx" ON "team_follows"("user_id", "created_at" DESC, "team_id" DESC);
