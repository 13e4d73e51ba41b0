-- CreateIndex
CREATE INDEX "invite_redemptions_created_at_invitee_id_idx" ON "invite_redemptions"("created_at", "invitee_id");
