-- CreateTable
CREATE TABLE "user_mutes" (
    "muter_id" UUID NOT NULL,
    "muted_id" UUID NOT NULL,
    "notifications" BOOLEAN NOT NULL DEFAULT true,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_mutes_pkey" PRIMARY KEY ("muter_id","muted_id")
);

-- CreateTable
CREATE TABLE "keyword_filters" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "keywords" JSONB NOT NULL,
    "pattern" TEXT NOT NULL,
    "contexts" TEXT[],
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "keyword_filters_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "user_mutes_muter_id_created_at_muted_id_idx" ON "user_mutes"("muter_id", "created_at" DESC, "muted_id" DESC);

-- CreateIndex
CREATE INDEX "user_mutes_muted_id_idx" ON "user_mutes"("muted_id");

-- CreateIndex
CREATE INDEX "keyword_filters_user_id_id_idx" ON "keyword_filters"("user_id", "id");

-- AddForeignKey
ALTER TABLE "user_mutes" ADD CONSTRAINT "user_mutes_muter_id_fkey" FOREIGN KEY ("muter_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_mutes" ADD CONSTRAINT "user_mutes_muted_id_fkey" FOREIGN KEY ("muted_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "keyword_filters" ADD CONSTRAINT "keyword_filters_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- No one mutes themselves; a filter has a title, 1..10 keywords, one to three known contexts and a compiled pattern.
ALTER TABLE "user_mutes" ADD CONSTRAINT "user_mutes_not_self" CHECK (muter_id <> muted_id);
ALTER TABLE "keyword_filters" ADD CONSTRAINT "keyword_filters_title" CHECK (length(title) BETWEEN 1 AND 100);
ALTER TABLE "keyword_filters" ADD CONSTRAINT "keyword_filters_keywords" CHECK (jsonb_typeof(keywords) = 'array' AND jsonb_array_length(keywords) BETWEEN 1 AND 10);
ALTER TABLE "keyword_filters" ADD CONSTRAINT "keyword_filters_pattern" CHECK (length(pattern) > 0);
ALTER TABLE "keyword_filters" ADD CONSTRAINT "keyword_filters_contexts" CHECK (
  contexts IS NOT NULL AND cardinality(contexts) BETWEEN 1 AND 3 AND contexts <@ ARRAY['feed', 'comments', 'notifications']::text[]);
