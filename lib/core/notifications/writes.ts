import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { notMutedActorSql } from "../mutes/service";
import type { NotificationType } from "./schemas";

// The one writer of the notifications table: every producer (this module's crons, the locker room, comments,
// reactions, tags, follows, the market, the marketplace, streaks) states who gets what in a SELECT and writes it
// through notificationInsertSql. No other file inserts into notifications (tests/domain/contract.test.ts checks it).

/**
 * The rows of one notification type a producer writes, as the parts of one SELECT: `recipient` (uuid), `cause` (the
 * cause key, text: unique per recipient, which keeps every producer idempotent), `actor` (uuid, who caused it: the
 * `actor_id` that erasure scrubs by; null for a notification nobody caused), `payload` (jsonb), and `from` (the rest
 * of the SELECT: FROM … WHERE …).
 */
export interface NotificationSelect {
  type: NotificationType;
  recipient: Prisma.Sql;
  cause: Prisma.Sql;
  actor: Prisma.Sql | null;
  payload: Prisma.Sql;
  from: Prisma.Sql;
}

/**
 * One `INSERT INTO notifications … SELECT … ON CONFLICT (user_id, cause_key) DO NOTHING` over the selects (UNION ALL
 * when several), each row with a new UUIDv7 id; `ctes` is an optional `WITH …` the selects read. `actor_id` is
 * written when the selects name an actor (all of them or none).
 */
export function notificationInsertSql(selects: NotificationSelect | readonly NotificationSelect[], ctes: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const all = Array.isArray(selects) ? (selects as readonly NotificationSelect[]) : [selects as NotificationSelect];
  const withActor = all[0]!.actor !== null;
  if (all.some((s) => (s.actor !== null) !== withActor)) throw new Error("notificationInsertSql: name an actor in every select or in none");
  const columns = withActor ? Prisma.sql`(id, user_id, type, cause_key, actor_id, payload)` : Prisma.sql`(id, user_id, type, cause_key, payload)`;
  const rows = all.map((s) =>
    withActor
      ? Prisma.sql`SELECT ${UUIDV7_SQL}, ${s.recipient}, ${s.type}::"NotificationType", ${s.cause}, ${s.actor!}, ${s.payload}
    ${s.from}`
      : Prisma.sql`SELECT ${UUIDV7_SQL}, ${s.recipient}, ${s.type}::"NotificationType", ${s.cause}, ${s.payload}
    ${s.from}`,
  );
  return Prisma.sql`${ctes}
    INSERT INTO notifications ${columns}
    ${Prisma.join(rows, "\n    UNION ALL\n    ")}
    ON CONFLICT (user_id, cause_key) DO NOTHING`;
}

/** Runs notificationInsertSql on `db` (the caller's transaction or client, as given); answers how many were written. */
export const insertNotifications = (db: RawDb | DbTx, selects: NotificationSelect | readonly NotificationSelect[], ctes?: Prisma.Sql) =>
  (db as RawDb).$executeRaw(notificationInsertSql(selects, ctes));

const column = (alias: string, name: string) => Prisma.raw(`${alias}.${name}`);

/** The payload's `actor`, over a users row aliased `alias`: the shape erasure (eraseActorSql) turns into the tombstone. */
export const actorJsonSql = (alias = "a") =>
  Prisma.sql`jsonb_build_object('id', ${column(alias, "id")}::text, 'handle', ${column(alias, "handle")}, 'displayName', ${column(alias, "display_name")}, 'avatarUrl', ${column(alias, "avatar_url")})`;

/** How a title names the actor (users row `alias`): display name, else handle, else "A fan" (what erasure writes too). */
export const actorNameSql = (alias = "a") => Prisma.sql`COALESCE(${column(alias, "display_name")}, ${column(alias, "handle")}, 'A fan')`;

/** `x` and `y` (uuid expressions) are in no block, either way. */
export const notBlockedEitherWaySql = (x: Prisma.Sql, y: Prisma.Sql) =>
  Prisma.sql`NOT EXISTS (SELECT 1 FROM user_blocks b WHERE (b.blocker_id = ${x} AND b.blocked_id = ${y}) OR (b.blocker_id = ${y} AND b.blocked_id = ${x}))`;

/** `recipient` did not mute the thread of `post` (uuid expressions; post_mutes). */
export const threadNotMutedSql = (recipient: Prisma.Sql, post: Prisma.Sql) =>
  Prisma.sql`NOT EXISTS (SELECT 1 FROM post_mutes m WHERE m.user_id = ${recipient} AND m.post_id = ${post})`;

/**
 * The recipient's side of a notification a fan caused: no block between them either way, and no live mute of the
 * actor by the recipient that stops notifications (lib/core/mutes).
 */
export const recipientAcceptsSql = (recipient: Prisma.Sql, actor: Prisma.Sql) =>
  Prisma.sql`${notBlockedEitherWaySql(recipient, actor)}
      AND ${notMutedActorSql(recipient, actor)}`;
