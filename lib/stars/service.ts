import type { Db, DbTx, Pool } from "../db/client";
import { DomainError } from "../http/errors";
import { mergeItem, STARRED_TEAMS_CAP, type StarSnapshot } from "./schemas";

// Stars are HQ bookmarks: no follow, no social surface. The cap is held by locking the user's row for the
// transaction, so concurrent stars of one user are serialized and counted under the lock.

const TX = { maxWait: 15_000, timeout: 15_000 };

async function lockUser(tx: DbTx, userId: string) {
  await tx.$queryRaw`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
}

interface StarEntryRow {
  teamId: string;
  slug: string | null;
  name: string | null;
  logo: string | null;
  source: string | null;
  providerId: string | null;
  starredAt: Date;
}

// Starred entries in one round trip: each star joined with its team row when one exists. The live row wins over
// the stored snapshot; with no row the snapshot stands and source/providerId are null. $2 narrows to one team.
const STAR_ENTRIES_SQL = `
  SELECT s.team_id AS "teamId", s.starred_at AS "starredAt",
         CASE WHEN t.id IS NULL THEN s.slug ELSE t.slug END AS slug,
         CASE WHEN t.id IS NULL THEN s.name ELSE t.name END AS name,
         CASE WHEN t.id IS NULL THEN s.logo ELSE t.logo END AS logo,
         t.source, t.provider_id AS "providerId"
  FROM starred_teams s LEFT JOIN teams t ON t.id = s.team_id
  WHERE s.user_id = $1::uuid AND ($2::text IS NULL OR s.team_id = $2::text)
  ORDER BY s.starred_at DESC, s.team_id`;

const toEntry = (r: StarEntryRow) => ({
  id: r.teamId,
  slug: r.slug,
  name: r.name,
  logo: r.logo,
  source: r.source,
  providerId: r.providerId,
  starredAt: r.starredAt.toISOString(),
});

/** Inside a transaction (after a write). */
async function starEntries(tx: DbTx, userId: string, onlyTeamId: string | null = null) {
  return (await tx.$queryRawUnsafe<StarEntryRow[]>(STAR_ENTRIES_SQL, userId, onlyTeamId)).map(toEntry);
}

/** The starred list, a hot read: plain pg with a statement prepared once per connection. */
export async function listStars(pool: Pool, userId: string) {
  const { rows } = await pool.query<StarEntryRow>({ name: "starred_teams_list", text: STAR_ENTRIES_SQL, values: [userId, null] });
  return rows.map(toEntry);
}

/** Only the snapshot keys present are written; an explicit null clears. */
function snapshotUpdate(snapshot: StarSnapshot) {
  const data: StarSnapshot = {};
  for (const key of ["slug", "name", "logo"] as const) if (snapshot[key] !== undefined) data[key] = snapshot[key];
  return data;
}

export async function starTeam(db: Db, userId: string, teamId: string, snapshot: StarSnapshot = {}) {
  return db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    const existing = await tx.starredTeam.findUnique({ where: { userId_teamId: { userId, teamId } }, select: { teamId: true } });
    const data = snapshotUpdate(snapshot);
    if (existing) {
      if (Object.keys(data).length) await tx.starredTeam.update({ where: { userId_teamId: { userId, teamId } }, data });
    } else {
      const count = await tx.starredTeam.count({ where: { userId } });
      if (count >= STARRED_TEAMS_CAP) {
        throw new DomainError("STARRED_TEAMS_LIMIT", `You can star at most ${STARRED_TEAMS_CAP} clubs. Unstar one first.`);
      }
      await tx.starredTeam.create({ data: { userId, teamId, ...data } });
    }
    const [team] = await starEntries(tx, userId, teamId);
    return { starred: true as const, team: team! };
  }, TX);
}

export async function unstarTeam(db: Db, userId: string, teamId: string) {
  await db.starredTeam.deleteMany({ where: { userId, teamId } });
  return { starred: false as const };
}

type Rejection = { index: number; id: string | null; reason: "invalid" | "over_cap" };

/** Additive merge: existing ids refresh their snapshot, new ids are starred until the cap. */
export async function mergeStars(db: Db, userId: string, items: unknown[]) {
  const rejected: Rejection[] = [];
  const valid: { index: number; item: ReturnType<typeof mergeItem.parse> }[] = [];
  items.forEach((raw, index) => {
    const parsed = mergeItem.safeParse(raw);
    if (parsed.success) valid.push({ index, item: parsed.data });
    else {
      const id = raw && typeof raw === "object" && typeof (raw as { id?: unknown }).id === "string" ? (raw as { id: string }).id : null;
      rejected.push({ index, id, reason: "invalid" });
    }
  });

  let added = 0;
  let skipped = 0;
  const teams = await db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    const starred = new Set(
      (await tx.starredTeam.findMany({ where: { userId }, select: { teamId: true } })).map((s) => s.teamId),
    );
    const fresh: { userId: string; teamId: string; slug?: string | null; name?: string | null; logo?: string | null }[] = [];
    for (const { index, item } of valid) {
      const { id, ...snapshot } = item;
      const data = snapshotUpdate(snapshot);
      if (starred.has(id)) {
        const pending = fresh.find((f) => f.teamId === id);
        if (pending) Object.assign(pending, data);
        else if (Object.keys(data).length) await tx.starredTeam.update({ where: { userId_teamId: { userId, teamId: id } }, data });
      } else if (starred.size >= STARRED_TEAMS_CAP) {
        skipped++;
        rejected.push({ index, id, reason: "over_cap" });
      } else {
        starred.add(id);
        fresh.push({ userId, teamId: id, ...data });
        added++;
      }
    }
    if (fresh.length) await tx.starredTeam.createMany({ data: fresh });
    return starEntries(tx, userId);
  }, TX);

  rejected.sort((a, b) => a.index - b.index);
  return { teams, added, skipped, rejected };
}
