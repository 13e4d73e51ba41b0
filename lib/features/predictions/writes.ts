import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { oncePerUser } from "../../db/fragments";
import { UUIDV7_SQL } from "../../db/ids";
import { awardRowsCtes } from "../../core/rep/service";

// The settlement's writes (lib/features/predictions/settle.ts), each in the game's settlement transaction.

/** The game's settlement row (version 0, settled on nothing) unless it has one, to lock. */
export async function ensureSettlement(tx: DbTx, gameId: string): Promise<void> {
  await tx.$executeRaw`INSERT INTO prediction_settlements (game_id) VALUES (${gameId}) ON CONFLICT DO NOTHING`;
}

/**
 * Credits one amount to many users, each once (awardRowsCtes, under the grant key `grantKey`, targetId the game):
 * answers the users whose credit took.
 */
export async function creditPoints(
  tx: DbTx,
  users: string[],
  k: { gameId: string; grantKey: string; now: Date },
  award: Parameters<typeof awardRowsCtes>[1],
): Promise<string[]> {
  const credit = awardRowsCtes(
    oncePerUser(Prisma.sql`SELECT ${UUIDV7_SQL} AS id, u AS user_id, ${k.gameId}::text AS target_id, ${k.grantKey}::text AS grant_key, ${k.now}::timestamptz AS created_at
                           FROM unnest(${users}::uuid[]) AS u`),
    award,
  );
  const took = await tx.$queryRaw<{ userId: string }[]>`WITH ${credit.sql} SELECT user_id AS "userId" FROM ${credit.name.entries}`;
  return took.map((t) => t.userId);
}

/** Each prediction's points and the Rep the ledger now holds for it (arrays in the same order), settled at `now`. */
export async function setPredictionPoints(tx: DbTx, ids: string[], points: number[], credited: number[], now: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE predictions p SET points = v.points, rep_credited = v.credited, settled_at = ${now}::timestamptz
    FROM unnest(${ids}::uuid[], ${points}::int[], ${credited}::int[]) AS v(id, points, credited)
    WHERE p.id = v.id`;
}

/** What the game was settled on (its final score, none when voided, and kick-off) as its new version. */
export async function recordSettlement(
  tx: DbTx,
  gameId: string,
  s: { final: { home: number; away: number } | null; startsAt: Date; version: number; now: Date },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE prediction_settlements SET home_score = ${s.final?.home ?? null}::int, away_score = ${s.final?.away ?? null}::int,
      starts_at = ${s.startsAt}::timestamptz, version = ${s.version}, settled_at = ${s.now}::timestamptz
    WHERE game_id = ${gameId}`;
}
