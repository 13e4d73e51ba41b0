import { randomInt } from "node:crypto";
import type { Db } from "../../db/client";
import { rawTransaction, type RawDb } from "../../db/raw";
import { isUniqueViolation, lockUser } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { errors as predictionsErrors } from "./errors";
import {
  addMember,
  deleteLeague,
  insertLeague,
  isMember,
  leagueCounts,
  leagueOfMember,
  leaguesOf,
  lockLeague,
  membersOf,
  removeMember,
  setCode,
  standingsRows,
  type LeagueRow,
} from "./private-league-queries";
import { JOIN_CODE_LENGTH, LEAGUE_MEMBER_CAP, LEAGUES_OWNED_PER_USER, LEAGUES_PER_USER } from "./schemas";
import { uuidv7 } from "../../db/ids";

// Private leagues: fans compete on prediction points among themselves. A league is joined by its code (the owner can
// rotate it); the member cap and the per-fan caps are counted under row locks, in one order: the joining fan's user row,
// then the league's row (leaving and removing lock only the league's). Rules: docs/domains/predictions.md.

// Letters and digits a person reads back without confusion (no 0/O, 1/I/L).
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const newCode = () => Array.from({ length: JOIN_CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");

/** Runs `work` again (a new code) when a generated join code met an existing one. */
async function withFreshCode<T>(work: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(newCode());
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 5) throw e;
    }
  }
}

const toLeague = (l: LeagueRow, userId: string) => ({
  id: l.id,
  name: l.name,
  ownerId: l.ownerId,
  isOwner: l.ownerId === userId,
  code: l.code,
  memberCount: l.memberCount,
  memberCap: LEAGUE_MEMBER_CAP,
  joinedAt: l.joinedAt.toISOString(),
  createdAt: l.createdAt.toISOString(),
});

/** The league as the member sees it, with the owner's admin fields; 404 for a non-member (the league stays unseen). */
async function leagueView(db: RawDb | Db, leagueId: string, userId: string) {
  const l = await leagueOfMember(db, leagueId, userId);
  if (!l) throw notFound("Private league");
  const admin =
    l.ownerId === userId
      ? {
          codeRotatedAt: l.codeRotatedAt.toISOString(),
          members: (await membersOf(db, leagueId)).map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })),
        }
      : null;
  return { ...toLeague(l, userId), admin };
}

export async function listMyLeagues(db: RawDb | Db, userId: string) {
  return { leagues: (await leaguesOf(db, userId)).map((l) => toLeague(l, userId)) };
}

export async function getLeague(db: RawDb | Db, userId: string, leagueId: string) {
  return { league: await leagueView(db, leagueId, userId) };
}

function refuseCaps(counts: { member: number; owned: number }, owning: boolean) {
  if (counts.member >= LEAGUES_PER_USER)
    throw new DomainError(predictionsErrors.LEAGUE_LIMIT, `A fan may be in at most ${LEAGUES_PER_USER} private leagues; leave one first.`);
  if (owning && counts.owned >= LEAGUES_OWNED_PER_USER)
    throw new DomainError(predictionsErrors.LEAGUE_LIMIT, `A fan may own at most ${LEAGUES_OWNED_PER_USER} private leagues.`);
}

/** POST /api/v1/private-leagues: a league owned by the caller, who is its first member, with a new join code. */
export async function createLeague(db: Db, userId: string, name: string) {
  const id = await withFreshCode((code) =>
    rawTransaction(db, async (tx) => {
      await lockUser(tx, userId);
      refuseCaps(await leagueCounts(tx, userId), true);
      const now = new Date();
      const id = uuidv7(now.getTime());
      await insertLeague(tx, { id, name, ownerId: userId, code, now });
      return id;
    }),
  );
  return { league: await leagueView(db, id, userId) };
}

/**
 * POST /api/v1/private-leagues/join: under the caller's row lock (their cap) and the league's (its member cap). A
 * member joining again changes nothing (joined: false).
 */
export async function joinLeague(db: Db, userId: string, code: string) {
  const { leagueId, joined } = await rawTransaction(db, async (tx) => {
    await lockUser(tx, userId);
    const league = await lockLeague(tx, { code });
    if (!league) throw new DomainError(predictionsErrors.INVALID_LEAGUE_CODE, "No private league has this code.");
    if (await isMember(tx, league.id, userId)) return { leagueId: league.id, joined: false };
    refuseCaps(await leagueCounts(tx, userId), false);
    if (league.memberCount >= LEAGUE_MEMBER_CAP) throw new DomainError(predictionsErrors.LEAGUE_FULL, `This league is full (${LEAGUE_MEMBER_CAP} members).`);
    await addMember(tx, league.id, userId, new Date());
    return { leagueId: league.id, joined: true };
  });
  return { joined, league: await leagueView(db, leagueId, userId) };
}

/**
 * DELETE /api/v1/private-leagues/{leagueId}/membership: the caller leaves, or (owner only) removes `targetId`. The
 * owner cannot leave while others remain (409 OWNER_CANNOT_LEAVE); leaving as the last member deletes the league.
 */
export async function leaveLeague(db: Db, userId: string, leagueId: string, targetId?: string) {
  const who = targetId ?? userId;
  return rawTransaction(db, async (tx) => {
    const league = await lockLeague(tx, { id: leagueId });
    if (!league || !(await isMember(tx, leagueId, userId))) throw notFound("Private league");
    if (who !== userId && league.ownerId !== userId)
      throw new DomainError(predictionsErrors.NOT_LEAGUE_OWNER, "Only the league's owner may remove another member.");
    if (who === league.ownerId) {
      if (league.memberCount > 1)
        throw new DomainError(predictionsErrors.OWNER_CANNOT_LEAVE, "The owner cannot leave while other members remain; remove them first.");
      await deleteLeague(tx, leagueId);
      return { leagueId, userId: who, removed: false, leagueDeleted: true };
    }
    if (!(await removeMember(tx, leagueId, who))) throw notFound("Member");
    return { leagueId, userId: who, removed: who !== userId, leagueDeleted: false };
  });
}

/** POST /api/v1/private-leagues/{leagueId}/code: the owner replaces the join code (the old one stops working at once). */
export async function rotateCode(db: Db, userId: string, leagueId: string) {
  return withFreshCode((code) =>
    rawTransaction(db, async (tx) => {
      const league = await lockLeague(tx, { id: leagueId });
      if (!league || !(await isMember(tx, leagueId, userId))) throw notFound("Private league");
      if (league.ownerId !== userId) throw new DomainError(predictionsErrors.NOT_LEAGUE_OWNER, "Only the league's owner may rotate its code.");
      const now = new Date();
      await setCode(tx, leagueId, code, now);
      return { code, codeRotatedAt: now.toISOString() };
    }),
  );
}

/**
 * GET /api/v1/private-leagues/{leagueId}/standings: every member (at most the member cap), by points from games that
 * kicked off after they joined, then exact scores, then who joined first, then user id; equal points and exact scores
 * share a rank.
 */
export async function leagueStandings(db: RawDb | Db, userId: string, leagueId: string) {
  if (!(await leagueOfMember(db, leagueId, userId))) throw notFound("Private league");
  const rows = await standingsRows(db, leagueId);
  let rank = 0;
  return {
    leagueId,
    standings: rows.map((r, i) => {
      const prev = rows[i - 1];
      if (!prev || prev.points !== r.points || prev.exactScores !== r.exactScores) rank = i + 1;
      return { ...r, joinedAt: r.joinedAt.toISOString(), rank };
    }),
  };
}
