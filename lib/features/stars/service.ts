import type { Db } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError } from "../../kernel/errors";
import { starEntries } from "./queries";
import { mergeItem, STARRED_TEAMS_CAP, type StarSnapshot } from "./schemas";
import { errors as starsErrors } from "./errors";

// Stars are HQ bookmarks: no follow, no social surface. The cap is held by locking the user's row for the
// transaction, so concurrent stars of one user are serialized and counted under the lock.

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
        throw new DomainError(starsErrors.STARRED_TEAMS_LIMIT, `You can star at most ${STARRED_TEAMS_CAP} clubs. Unstar one first.`);
      }
      await tx.starredTeam.create({ data: { userId, teamId, ...data } });
    }
    const [team] = await starEntries(tx, userId, teamId);
    return { starred: true as const, team: team! };
  }, txOptions());
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
    const starred = new Set((await tx.starredTeam.findMany({ where: { userId }, select: { teamId: true } })).map((s) => s.teamId));
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
  }, txOptions());

  rejected.sort((a, b) => a.index - b.index);
  return { teams, added, skipped, rejected };
}
