-- CreateTable
CREATE TABLE "direct_uploads" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "pathname" TEXT NOT NULL,
    "max_bytes" INTEGER NOT NULL,
    "token_hash" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "upload_id" UUID,

    CONSTRAINT "direct_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "direct_uploads_pathname_key" ON "direct_uploads"("pathname");

-- CreateIndex
CREATE INDEX "direct_uploads_user_id_created_at_idx" ON "direct_uploads"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "direct_uploads_expires_at_id_idx" ON "direct_uploads"("expires_at", "id");

-- AddForeignKey
ALTER TABLE "direct_uploads" ADD CONSTRAINT "direct_uploads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
