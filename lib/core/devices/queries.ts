import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";

// Push devices' statements. A token is unique per provider: registering it again moves it to the caller.

export interface DeviceRow {
  id: string;
  provider: "expo" | "fcm" | "apns" | "webpush";
  platform: "ios" | "android" | "web";
  appVersion: string | null;
  locale: string | null;
  timezone: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = Prisma.sql`id::text AS id, provider, platform, app_version AS "appVersion", locale, timezone, created_at AS "createdAt", updated_at AS "updatedAt"`;

export const toDevice = (d: DeviceRow) => ({ ...d, createdAt: d.createdAt.toISOString(), updatedAt: d.updatedAt.toISOString() });

export function devicesOf(db: RawDb | DbTx, userId: string) {
  return raw(db).$queryRaw<DeviceRow[]>`SELECT ${COLUMNS} FROM devices WHERE user_id = ${userId}::uuid ORDER BY id`;
}

/** Whose the token is now, if anyone's. */
export async function tokenOwner(db: RawDb | DbTx, provider: string, token: string): Promise<string | undefined> {
  const [row] = await raw(db).$queryRaw<{ userId: string }[]>`
    SELECT user_id::text AS "userId" FROM devices WHERE provider = ${provider} AND token = ${token}`;
  return row?.userId;
}

export interface NewDevice {
  id: string;
  userId: string;
  provider: string;
  token: string;
  webpushKeys: unknown;
  platform: string;
  appVersion: string | null;
  locale: string | null;
  timezone: string | null;
}

/** Registers the token for the user: a new row, or the token's row moved to (or refreshed for) the user. */
export async function upsertDevice(db: RawDb | DbTx, d: NewDevice): Promise<DeviceRow> {
  const [row] = await raw(db).$queryRaw<DeviceRow[]>`
    INSERT INTO devices (id, user_id, provider, token, webpush_keys, platform, app_version, locale, timezone)
    VALUES (${d.id}::uuid, ${d.userId}::uuid, ${d.provider}, ${d.token}, ${d.webpushKeys === null ? null : JSON.stringify(d.webpushKeys)}::jsonb,
            ${d.platform}, ${d.appVersion}, ${d.locale}, ${d.timezone})
    ON CONFLICT (provider, token) DO UPDATE SET
      user_id = EXCLUDED.user_id, webpush_keys = EXCLUDED.webpush_keys, platform = EXCLUDED.platform, app_version = EXCLUDED.app_version,
      locale = EXCLUDED.locale, timezone = EXCLUDED.timezone, updated_at = now(),
      created_at = CASE WHEN devices.user_id = EXCLUDED.user_id THEN devices.created_at ELSE now() END
    RETURNING ${COLUMNS}`;
  return row!;
}

export async function updateDevice(
  db: RawDb | DbTx,
  userId: string,
  id: string,
  p: { appVersion?: string; locale?: string; timezone?: string },
): Promise<DeviceRow | undefined> {
  const [row] = await raw(db).$queryRaw<DeviceRow[]>`
    UPDATE devices SET app_version = COALESCE(${p.appVersion ?? null}, app_version), locale = COALESCE(${p.locale ?? null}, locale),
                       timezone = COALESCE(${p.timezone ?? null}, timezone), updated_at = now()
    WHERE id = ${id}::uuid AND user_id = ${userId}::uuid
    RETURNING ${COLUMNS}`;
  return row;
}

export const deleteDevice = (db: RawDb | DbTx, userId: string, id: string) =>
  raw(db).$executeRaw`DELETE FROM devices WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`;
