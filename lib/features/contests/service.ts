import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { isUniqueViolation, txOptions } from "../../db/tx";
import { lockCollectibles } from "../../core/collectibles/service";
import { toCollectible } from "../../core/collectibles/service";
import { lockedBy, lockedItems } from "../challenges/service";
import { errors as challengesErrors } from "../challenges/errors";
import { DomainError, notFound, sharedErrors, validationError, type ErrorDetail } from "../../kernel/errors";
import { decodeCursor, decodeIdCursor, encodeCursor, encodeIdCursor, invalidCursor } from "../../kernel/cursor";
import { keysetPage, type Page } from "../../kernel/page";
import { processCache } from "../../db/cache";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import {
  cardStates,
  cardsOfLineup,
  contestById,
  contestsPage,
  countLineups,
  deleteLineup as deleteLineupRow,
  gamesByIds,
  gamesOfContests,
  insertContest,
  leaderboardHead,
  lineupOf,
  lockLineup,
  replaceLineupCards,
  standingsPage,
  type ContestGameRow,
  type ContestRow,
  type LineupRow,
  type StandingRow,
} from "./queries";
import type { ContestCreateInput, LineupInput } from "./schemas";
import { errors as contestsErrors } from "./errors";

export { runContestsCron } from "./settle";

// Contests: a lineup (PUT) names N of the caller's player cards in the contest's slots with one captain. In one
// transaction: the contest row (FOR KEY SHARE: settlement's FOR UPDATE waits, other lineups do not), the lineup's
// row, then the cards' rows (lockCollectibles: id order, the marketplace's lock order), then every rule is checked,
// the cards are locked in the lineup until the contest settles (lockedItems), and last a new lineup is counted on the
// contest row (countLineups; decision 0063). Rules: docs/domains/contests.md.

function toContest(c: ContestRow, games: ContestGameRow[]) {
  return {
    id: c.id,
    title: c.title,
    status: c.status,
    lineupSize: c.lineupSize,
    slots: c.slots,
    rarityCap: c.rarityCap,
    captainMultiplier: c.captainMultiplier,
    prizes: c.prizes,
    lockAt: c.lockAt.toISOString(),
    games: games
      .filter((g) => g.contestId === c.id)
      .map((g) => ({ id: g.id, startsAt: g.startsAt.toISOString(), status: g.status, homeTeamId: g.homeTeamId, awayTeamId: g.awayTeamId })),
    lineupCount: c.lineupCount,
    settledAt: c.settledAt?.toISOString() ?? null,
    settledVersion: c.settledVersion,
    createdAt: c.createdAt.toISOString(),
  };
}

async function contestOut(db: RawDb | DbTx, c: ContestRow) {
  return toContest(c, await gamesOfContests(db, [c.id]));
}

async function lineupOut(db: RawDb | DbTx, l: LineupRow) {
  const cards = await cardsOfLineup(db, l.id);
  return {
    contestId: l.contestId,
    userId: l.userId,
    captainId: l.captainId,
    submittedAt: l.submittedAt.toISOString(),
    cards: cards.map((c) => ({ slot: c.slot, position: c.position, captain: c.id === l.captainId, void: c.void, collectible: toCollectible(c) })),
    score: l.score,
    captainScore: l.captainScore,
    rank: l.rank,
    prize: l.prizePaid,
  };
}

export async function listContests(db: RawDb, q: { status?: ContestRow["status"]; cursor?: string; limit: number }) {
  const rows = await contestsPage(db, { status: q.status, before: q.cursor ? decodeIdCursor(q.cursor) : undefined, take: q.limit + 1 });
  const games = await gamesOfContests(
    db,
    rows.map((r) => r.id),
  );
  return keysetPage(
    "contests",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.id),
    (r) => toContest(r, games),
  );
}

async function oneContest(db: RawDb | DbTx, contestId: string) {
  const c = await contestById(db, contestId);
  if (!c) throw notFound("Contest");
  return c;
}

export async function getContest(db: RawDb, contestId: string, userId: string | null) {
  const c = await oneContest(db, contestId);
  const l = userId ? await lineupOf(db, contestId, userId) : undefined;
  return { contest: await contestOut(db, c), lineup: l ? await lineupOut(db, l) : null };
}

export async function getLineup(db: RawDb, contestId: string, userId: string) {
  const c = await oneContest(db, contestId);
  const l = await lineupOf(db, contestId, userId);
  if (!l) throw notFound("Lineup");
  return { contest: await contestOut(db, c), lineup: await lineupOut(db, l) };
}

const locked = (c: ContestRow) =>
  new DomainError(contestsErrors.CONTEST_LOCKED, `The contest locked at ${c.lockAt.toISOString()}: lineups can no longer change.`);

/** Slot rule "RB/WR" accepts a player at RB or WR (case-insensitive); "*" accepts any position. */
export const slotAccepts = (rule: string, position: string | null) =>
  rule === "*" || (position !== null && rule.toUpperCase().split("/").includes(position.trim().toUpperCase()));

function checkRules(c: ContestRow, input: LineupInput, states: Map<string, Awaited<ReturnType<typeof cardStates>>[number]>) {
  const at = (i: number, field = "collectibleId") => `body.cards.${i}.${field}`;
  const cards = input.cards;
  if (cards.length !== c.lineupSize || cards.some((x) => x.slot >= c.lineupSize))
    throw new DomainError(
      contestsErrors.LINEUP_SIZE,
      `This contest's lineup is exactly ${c.lineupSize} cards, one in each slot 0..${c.lineupSize - 1}.`,
      cards.length !== c.lineupSize
        ? [{ path: "body.cards", message: `${cards.length} cards, ${c.lineupSize} asked` }]
        : cards.flatMap((x, i) => (x.slot >= c.lineupSize ? [{ path: at(i, "slot"), message: `no slot ${x.slot}` }] : [])),
    );
  const bad = (list: ErrorDetail[], code: keyof typeof contestsErrors, message: string) => {
    if (list.length) throw new DomainError(contestsErrors[code], message, list);
  };
  bad(
    cards.flatMap((x, i) => (states.get(x.collectibleId)!.covered ? [] : [{ path: at(i), message: "not a player card of a team in this contest's games" }])),
    "LINEUP_PLAYER_NOT_COVERED",
    "Some cards are not of players whose teams play in this contest's games (details name them).",
  );
  bad(
    cards.flatMap((x, i) => {
      const s = states.get(x.collectibleId)!;
      return slotAccepts(c.slots[x.slot]!, s.position)
        ? []
        : [{ path: at(i, "slot"), message: `position ${s.position ?? "none"} does not fit slot ${x.slot} (${c.slots[x.slot]})` }];
    }),
    "LINEUP_POSITION",
    "Some cards' players do not play the position of their slot (details name them).",
  );
  const counts = new Map<string, number>();
  const over: ErrorDetail[] = [];
  cards.forEach((x, i) => {
    const rarity = states.get(x.collectibleId)!.rarity;
    const n = (counts.get(rarity) ?? 0) + 1;
    counts.set(rarity, n);
    const cap = c.rarityCap[rarity];
    if (cap !== undefined && n > cap) over.push({ path: at(i), message: `more than ${cap} ${rarity} card(s)` });
  });
  bad(over, "LINEUP_RARITY_CAP", "The lineup is over the contest's cap for a rarity (details name the cards past it).");
}

async function putLineupTx(tx: DbTx, userId: string, contestId: string, input: LineupInput) {
  const c = await contestById(tx, contestId, "keyShare");
  if (!c) throw notFound("Contest");
  if (c.status !== "open") throw locked(c);
  const want = input.cards.map((x) => x.collectibleId);
  const captainId = input.cards.find((x) => x.captain)!.collectibleId;
  const lineup = await lockLineup(tx, contestId, userId, captainId);
  await lockCollectibles(tx, [...lineup.cardIds, ...want]);
  const states = new Map((await cardStates(tx, contestId, want)).map((s) => [s.id, s]));
  const idx = (id: string) => `body.cards.${want.indexOf(id)}.collectibleId`;
  const notYours = want.filter((id) => states.get(id)?.ownerId !== userId);
  if (notYours.length)
    throw new DomainError(
      sharedErrors.NOT_FOUND,
      "Some collectibles are not yours (details name them).",
      notYours.map((id) => ({ path: idx(id), message: "not found" })),
    );
  checkRules(c, input, states);
  const listed = want.filter((id) => states.get(id)!.listed);
  if (listed.length)
    throw new DomainError(
      challengesErrors.ENTRY_ITEM_LISTED,
      "Some cards are listed or in an auction (details name them): cancel the listing first.",
      listed.map((id) => ({ path: idx(id), message: "listed" })),
    );
  const minted = want.filter((id) => states.get(id)!.minted);
  if (minted.length)
    throw new DomainError(
      challengesErrors.ENTRY_ITEM_MINTED,
      "Some cards are minted or being minted (details name them).",
      minted.map((id) => ({ path: idx(id), message: "minted" })),
    );
  const held = (await lockedItems(tx, want)).filter((l) => !(l.kind === "contest" && l.holderId === c.id));
  if (held.length)
    throw new DomainError(
      challengesErrors.ITEM_LOCKED,
      `Some cards are locked by another ${held[0]!.kind} ("${held[0]!.title}") (details name them): a card is in one unsettled lineup or challenge entry at a time.`,
      held.map((l) => ({ path: idx(l.collectibleId), message: `in ${lockedBy(l)}` })),
    );
  await replaceLineupCards(
    tx,
    { id: lineup.id, contestId, captainId },
    input.cards.map((x) => ({ collectibleId: x.collectibleId, slot: x.slot, playerId: states.get(x.collectibleId)!.playerId! })),
  );
  if (lineup.created) await countLineups(tx, contestId, 1);
  return { contest: await contestOut(tx, (await contestById(tx, contestId))!), lineup: await lineupOut(tx, (await lineupOf(tx, contestId, userId))!) };
}

export async function putLineup(db: Db, userId: string, contestId: string, input: LineupInput) {
  try {
    return await db.$transaction((tx) => putLineupTx(tx, userId, contestId, input), txOptions());
  } catch (e) {
    // Backstop: the lock slot's unique index (a card in two unsettled lineups) should never be reached past the checks.
    if (isUniqueViolation(e)) throw new DomainError(challengesErrors.ITEM_LOCKED, "A card named is in another lineup now: read the contest and retry.");
    throw e;
  }
}

/** Withdraws the caller's lineup before the lock: its cards are unlocked at once. */
export async function deleteLineup(db: Db, userId: string, contestId: string) {
  return db.$transaction(async (tx) => {
    const c = await contestById(tx, contestId, "keyShare");
    if (!c) throw notFound("Contest");
    if (c.status !== "open") throw locked(c);
    const l = await lineupOf(tx, contestId, userId, true);
    if (!l) throw notFound("Lineup");
    await deleteLineupRow(tx, contestId, l.id);
    return { contest: await contestOut(tx, (await contestById(tx, contestId))!), lineup: null };
  }, txOptions());
}

const toStanding = (r: StandingRow) => ({
  rank: r.rank,
  user: { id: r.userId, handle: r.handle, displayName: r.displayName },
  score: r.score,
  captainScore: r.captainScore,
  submittedAt: r.submittedAt.toISOString(),
  prize: r.prizePaid,
});

/**
 * Pages of a settled leaderboard, per process for LEADERBOARD_CACHE_MS: keyed by the settlement's version (read fresh
 * on every request), so a re-settlement is seen at once; only fans' handles and names may lag.
 */
export const LEADERBOARD_CACHE_MS = 30_000;
const pages = processCache<Page<"standings", ReturnType<typeof toStanding>>>("contests:standings", () => LEADERBOARD_CACHE_MS);

/** The settled leaderboard by rank (ties broken by the stored rank: docs/domains/contests.md), and the caller's own standing. */
export async function leaderboard(db: RawDb, contestId: string, userId: string | null, q: { cursor?: string; limit: number }) {
  let afterRank = 0;
  if (q.cursor) {
    const { sortKey } = decodeCursor(q.cursor);
    if (!/^\d{1,9}$/.test(sortKey)) throw invalidCursor();
    afterRank = Number(sortKey);
  }
  const head = await leaderboardHead(db, contestId, userId);
  if (!head) throw notFound("Contest");
  if (!head.settledAt) throw new DomainError(contestsErrors.CONTEST_NOT_SETTLED, "This contest has not settled yet: its leaderboard comes once it is scored.");
  const page = await pages.get(`${contestId}:${head.settledVersion}:${afterRank}:${q.limit}`, async () =>
    keysetPage("standings", await standingsPage(db, contestId, { afterRank, take: q.limit + 1 }), q.limit, (r) => encodeCursor(r.rank, r.lineupId), toStanding),
  );
  return { ...page, me: head.lineupId ? toStanding(head as StandingRow) : null };
}

/** Staff create a contest over scheduled games that have not kicked off; audited in the same transaction. */
export async function createContest(db: Db, input: ContestCreateInput, actor: StaffActor) {
  return db.$transaction(async (tx) => {
    const games = new Map((await gamesByIds(tx, input.gameIds)).map((g) => [g.id, g]));
    const bad: ErrorDetail[] = [];
    input.gameIds.forEach((id, i) => {
      const g = games.get(id);
      if (!g) bad.push({ path: `body.gameIds.${i}`, message: "no such game" });
      else if (g.status !== "scheduled" || g.startsAt.getTime() <= Date.now()) bad.push({ path: `body.gameIds.${i}`, message: "kicked off already" });
    });
    if (bad.length) throw validationError("Some games cannot be covered (details name them).", bad);
    const firstKickoff = Math.min(...[...games.values()].map((g) => g.startsAt.getTime()));
    const lockAt = input.lockAt ? new Date(input.lockAt) : new Date(firstKickoff);
    if (lockAt.getTime() <= Date.now() || lockAt.getTime() > firstKickoff)
      throw validationError("lockAt must be in the future and not after the earliest kick-off.", [{ path: "body.lockAt", message: "out of range" }]);
    const id = await insertContest(tx, { ...input, rarityCap: input.rarityCap as Record<string, number>, lockAt });
    const contest = await contestOut(tx, (await contestById(tx, id))!);
    await recordAudit(tx, actor, { action: "contest.create", targetType: "contest", targetId: id, after: contest });
    return { contest };
  }, txOptions());
}
