-- CreateTable
CREATE TABLE "devices" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "webpush_keys" JSONB,
    "platform" TEXT NOT NULL,
    "app_version" TEXT,
    "locale" TEXT,
    "timezone" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "devices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "devices_user_id_id_idx" ON "devices"("user_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "devices_provider_token_key" ON "devices"("provider", "token");

-- AddForeignKey
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The providers and platforms there are, a token short enough for its unique index, and web push with its keys.
ALTER TABLE "devices" ADD CONSTRAINT "devices_provider" CHECK (provider IN ('expo', 'fcm', 'apns', 'webpush'));
ALTER TABLE "devices" ADD CONSTRAINT "devices_platform" CHECK (platform IN ('ios', 'android', 'web'));
ALTER TABLE "devices" ADD CONSTRAINT "devices_token_length" CHECK (length(token) BETWEEN 1 AND 2048);
ALTER TABLE "devices" ADD CONSTRAINT "devices_webpush_keys" CHECK ((provider = 'webpush') = (webpush_keys IS NOT NULL));
