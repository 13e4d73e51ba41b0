-- CreateTable
CREATE TABLE "feed_snapshots" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "size" INTEGER NOT NULL,

    CONSTRAINT "feed_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feed_snapshot_chunks" (
    "snapshot_id" UUID NOT NULL,
    "chunk" INTEGER NOT NULL,
    "post_ids" BYTEA NOT NULL,

    CONSTRAINT "feed_snapshot_chunks_pkey" PRIMARY KEY ("snapshot_id","chunk")
);

-- CreateIndex
CREATE INDEX "feed_snapshots_user_id_created_at_idx" ON "feed_snapshots"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "feed_snapshots_created_at_idx" ON "feed_snapshots"("created_at");

-- AddForeignKey
ALTER TABLE "feed_snapshots" ADD CONSTRAINT "feed_snapshots_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feed_snapshot_chunks" ADD CONSTRAINT "feed_snapshot_chunks_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "feed_snapshots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
