-- CreateTable
CREATE TABLE "notification_preferences" (
    "user_id" UUID NOT NULL,
    "type" "NotificationType" NOT NULL,
    "in_app" BOOLEAN NOT NULL DEFAULT true,
    "push" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("user_id","type")
);

-- CreateTable
CREATE TABLE "push_quiet_hours" (
    "user_id" UUID NOT NULL,
    "start_minute" INTEGER NOT NULL,
    "end_minute" INTEGER NOT NULL,
    "time_zone" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_quiet_hours_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "push_outbox" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "notification_id" UUID NOT NULL,
    "cause_key" TEXT NOT NULL,
    "type" "NotificationType" NOT NULL,
    "actor_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "drop_reason" TEXT,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_deliveries" (
    "id" UUID NOT NULL,
    "outbox_id" UUID NOT NULL,
    "device_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "title" TEXT,
    "body" TEXT,
    "ticket_id" TEXT,
    "receipt_checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "push_outbox_status_next_attempt_at_idx" ON "push_outbox"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "push_outbox_status_id_idx" ON "push_outbox"("status", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "push_outbox_user_id_cause_key_key" ON "push_outbox"("user_id", "cause_key");

-- CreateIndex
CREATE INDEX "push_deliveries_outbox_id_idx" ON "push_deliveries"("outbox_id");

-- CreateIndex
CREATE INDEX "push_deliveries_provider_id_idx" ON "push_deliveries"("provider", "id" DESC);

-- CreateIndex
CREATE INDEX "push_deliveries_provider_receipt_checked_at_created_at_idx" ON "push_deliveries"("provider", "receipt_checked_at", "created_at");

-- AddForeignKey
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_quiet_hours" ADD CONSTRAINT "push_quiet_hours_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_outbox_id_fkey" FOREIGN KEY ("outbox_id") REFERENCES "push_outbox"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The states and what each implies; quiet hours within a day.
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_status" CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'dropped'));
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_dropped_reason" CHECK ((status = 'dropped') = (drop_reason IS NOT NULL));
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_sent_at" CHECK ((status = 'sent') = (sent_at IS NOT NULL));
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_claimed" CHECK (status <> 'sending' OR claimed_at IS NOT NULL);
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_attempts" CHECK (attempts >= 0);
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_outcome" CHECK (outcome IN ('ok', 'dead', 'error', 'skipped'));
ALTER TABLE "push_quiet_hours" ADD CONSTRAINT "push_quiet_hours_minutes" CHECK (start_minute BETWEEN 0 AND 1439 AND end_minute BETWEEN 0 AND 1439 AND start_minute <> end_minute);
ALTER TABLE "push_quiet_hours" ADD CONSTRAINT "push_quiet_hours_time_zone" CHECK (length(time_zone) BETWEEN 1 AND 64);

-- (Function bodies keep their statements' semicolons off line ends: prisma-sql check splits dumps on ";\n".)

-- In-app off for a type: the inbox never gets it (every producer's INSERT passes here), so it is never pushed.
CREATE FUNCTION notifications_in_app_preference() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM notification_preferences p WHERE p.user_id = NEW.user_id AND p.type = NEW.type AND NOT p.in_app) THEN RETURN NULL; END IF; RETURN NEW; END $$;
CREATE TRIGGER notifications_in_app_preference BEFORE INSERT ON notifications FOR EACH ROW EXECUTE FUNCTION notifications_in_app_preference();

-- Every notification the inbox gets is offered to push in the producer's statement (so its transaction): one outbox
-- row per (user, cause key) for users with a device. Only inserted rows are seen (a conflicting DO NOTHING row is
-- not), and an update of a notification is never offered again. The id is a UUIDv7 (lib/db/ids.ts UUIDV7_SQL).
CREATE FUNCTION notifications_push_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO push_outbox (id, user_id, notification_id, cause_key, type, actor_id)
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
           placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
         n.user_id, n.id, n.cause_key, n.type,
         CASE WHEN n.payload->'actor'->>'id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (n.payload->'actor'->>'id')::uuid END
  FROM new_notifications n
  WHERE EXISTS (SELECT 1 FROM devices d WHERE d.user_id = n.user_id)
  ON CONFLICT (user_id, cause_key) DO NOTHING; RETURN NULL; END $$;
CREATE TRIGGER notifications_push_outbox AFTER INSERT ON notifications REFERENCING NEW TABLE AS new_notifications
  FOR EACH STATEMENT EXECUTE FUNCTION notifications_push_outbox();

-- The users' notify_* booleans are their types' in-app master switch: turning one on turns on every type it covers
-- (the mapping: docs/domains/push.md, lib/push/schemas.ts SETTING_TYPES).
CREATE FUNCTION users_notify_preferences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notification_preferences SET in_app = true, updated_at = now()
  WHERE user_id = NEW.id AND NOT in_app AND (
       (NEW.notify_teams AND NOT OLD.notify_teams AND type IN ('GAME_ALERT', 'RATING', 'TEAM_POST'))
    OR (NEW.notify_milestones AND NOT OLD.notify_milestones AND type = 'MILESTONE')
    OR (NEW.notify_community AND NOT OLD.notify_community AND type IN ('REPLY', 'REACTION'))); RETURN NULL; END $$;
CREATE TRIGGER users_notify_preferences AFTER UPDATE OF notify_teams, notify_milestones, notify_community ON users
  FOR EACH ROW EXECUTE FUNCTION users_notify_preferences();
