-- AlterTable
ALTER TABLE "media_uploads" ADD COLUMN     "attached_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "media_uploads_user_id_kind_attached_at_idx" ON "media_uploads"("user_id", "kind", "attached_at");

-- CreateIndex
CREATE INDEX "media_uploads_kind_attached_at_created_at_idx" ON "media_uploads"("kind", "attached_at", "created_at");
