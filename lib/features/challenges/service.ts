import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { isUniqueViolation, txOptions } from "../../db/tx";
import { idempotent, type Idempotent, type IdempotencyKey } from "../../db/idempotency";
import { lockCollectibles } from "../../core/collectibles/service";
import { toCollectible } from "../../core/collectibles/service";
import { DomainError, notFound, sharedErrors, validationError, type ErrorDetail } from "../../kernel/errors";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { award } from "../../core/rep/service";
import { challengeSeedHash, newChallengeSeed, rewardSerialOf } from "./shuffle";
import {
  cardsOfChallenges,
  challengeById,
  challengesPage,
  deleteEntry,
  deleteEntryItems,
  entryItemIds,
  entryOf,
  existingCards,
  insertChallenge,
  insertEntryItems,
  insertReward,
  insertRewardCopy,
  itemStates,
  lockedBy,
  lockedItems,
  lockEntry,
  lockExistingEntry,
  ownedCopies,
  releaseEndedLocks,
  reserveSerials,
  rewardOf,
  takeRank,
  touchEntry,
  type CardRow,
  type ChallengeRow,
} from "./queries";
import { PROGRESS_COPIES_MAX, type ChallengeCreateInput, type EntryInput } from "./schemas";
import { errors as challengesErrors } from "./errors";
import { recordAudit, type StaffActor } from "../../core/audit/service";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { lockedBy, lockedItems } from "./queries";

// Collection challenges: a set of cards to complete before a deadline. A collector's entry (PUT) names their
// collectibles; under the items' row locks (after the entry's, in id order: the marketplace's lock order with the entry
// in front, as a trade's row is) each is checked and locked in the entry while the challenge has not ended; completing
// the set grants the reward in the same transaction, once per collector. Rules: docs/domains/challenges.md.

const toCard = (k: CardRow) => ({
  id: k.cardId,
  kind: k.kind,
  name: k.name,
  rarity: k.rarity,
  editionSize: k.editionSize,
  minted: k.mintedCount,
  imageUrl: k.imageUrl,
  teamId: k.teamId,
  playerId: k.playerId,
});

const statusOf = (c: ChallengeRow, now = Date.now()) => (c.startsAt.getTime() > now ? "upcoming" : c.endsAt.getTime() > now ? "open" : "ended");

async function toChallenges(db: RawDb | DbTx, rows: ChallengeRow[]) {
  const cards = rows.length
    ? await cardsOfChallenges(
        db,
        rows.map((r) => r.id),
      )
    : [];
  return rows.map((c) => {
    const mine = cards.filter((k) => k.challengeId === c.id);
    const rewardCard = mine.find((k) => k.count === null && k.cardId === c.rewardCardId);
    const ended = statusOf(c) === "ended";
    return {
      id: c.id,
      title: c.title,
      description: c.description,
      startsAt: c.startsAt.toISOString(),
      endsAt: c.endsAt.toISOString(),
      status: statusOf(c),
      cards: mine.filter((k) => k.count !== null).map((k) => ({ card: toCard(k), count: k.count! })),
      reward: {
        card: rewardCard ? toCard(rewardCard) : null,
        supply: c.rewardSupply,
        firstSerial: c.firstSerial,
        remaining: Math.max(0, c.rewardSupply - c.completions),
        rep: c.repReward,
      },
      completions: c.completions,
      fairness: { seedHash: c.seedHash, seed: ended ? c.seed : null },
      createdAt: c.createdAt.toISOString(),
    };
  });
}

async function oneChallenge(db: RawDb | DbTx, id: string) {
  const row = await challengeById(db, id);
  if (!row) throw notFound("Challenge");
  return { row, challenge: (await toChallenges(db, [row]))[0]! };
}

export async function listChallenges(db: RawDb | DbTx, q: { status?: "upcoming" | "open" | "ended"; cursor?: string; limit: number }) {
  const rows = await challengesPage(db, { status: q.status, before: q.cursor ? decodeIdCursor(q.cursor) : undefined, take: q.limit + 1 });
  const shown = await toChallenges(db, rows.slice(0, q.limit));
  return keysetPage(
    "challenges",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.id),
    (r) => shown[rows.indexOf(r)]!,
  );
}

/** The caller's progress: their copies of each required card (and which may go in), their entry, its reward. */
async function progressOf(db: RawDb | DbTx, userId: string, c: ChallengeRow) {
  const [copies, entry, reward, required] = await Promise.all([
    ownedCopies(db, userId, c.id, PROGRESS_COPIES_MAX),
    entryOf(db, c.id, userId),
    rewardOf(db, c.id, userId),
    cardsOfChallenges(db, [c.id]),
  ]);
  const cards = required
    .filter((k) => k.count !== null)
    .map((k) => {
      const owned = copies.filter((x) => x.cardId === k.cardId);
      return {
        cardId: k.cardId,
        count: k.count!,
        inEntry: owned.filter((x) => x.inEntry).length,
        owned: owned.map((x) => ({
          collectible: toCollectible(x),
          inEntry: x.inEntry,
          eligible: x.inEntry || (!x.listed && !x.minted && x.lockedById === null && x.contestId === null),
          lockedBy: x.lockedById ? { challengeId: x.lockedById, title: x.lockedByTitle!, endsAt: x.lockedUntil!.toISOString() } : null,
          lockedInContest: x.contestId ? { contestId: x.contestId, title: x.contestTitle! } : null,
          listed: x.listed,
          minted: x.minted,
        })),
      };
    });
  return {
    cards,
    entry: entry
      ? {
          collectibleIds: entry.collectibleIds,
          completedAt: entry.completedAt?.toISOString() ?? null,
          createdAt: entry.createdAt.toISOString(),
          updatedAt: entry.updatedAt.toISOString(),
        }
      : null,
    complete: entry?.completedAt != null,
    reward: reward
      ? { rank: reward.rank, serial: reward.serial, collectibleId: reward.collectibleId, rep: reward.repAwarded, at: reward.createdAt.toISOString() }
      : null,
  };
}

/** A challenge; with a session, the caller's progress. */
export async function getChallenge(db: RawDb | DbTx, userId: string | null, challengeId: string) {
  const { row, challenge } = await oneChallenge(db, challengeId);
  return { challenge, progress: userId ? await progressOf(db, userId, row) : null };
}

function assertOpen(c: ChallengeRow, now = Date.now()) {
  if (c.startsAt.getTime() > now) throw new DomainError(challengesErrors.CHALLENGE_NOT_STARTED, `This challenge opens at ${c.startsAt.toISOString()}.`);
  if (c.endsAt.getTime() <= now) throw new DomainError(challengesErrors.CHALLENGE_ENDED, `This challenge ended at ${c.endsAt.toISOString()}.`);
}

const itemError = (code: keyof typeof challengesErrors, message: string, details: ErrorDetail[]) => new DomainError(challengesErrors[code], message, details);

/**
 * Sets the caller's entry to these collectibles (PUT): checked and locked under the entry's and the items' row locks;
 * when they complete the set, the entry is completed and the reward granted, once per collector, in the same
 * transaction. A completed entry answers the same items again as they are, and refuses others (ENTRY_COMPLETED).
 */
async function putEntryTx(tx: DbTx, userId: string, challengeId: string, input: EntryInput) {
  const c = await challengeById(tx, challengeId);
  if (!c) throw notFound("Challenge");
  assertOpen(c);
  const required = new Map((await cardsOfChallenges(tx, [c.id])).filter((k) => k.count !== null).map((k) => [k.cardId, k.count!]));
  const entry = await lockEntry(tx, c.id, userId);
  const had = await entryItemIds(tx, entry.id);
  const want = [...input.collectibleIds].sort();
  if (entry.completedAt) {
    if (had.length === want.length && had.every((id, i) => id === want[i])) return;
    throw new DomainError(challengesErrors.ENTRY_COMPLETED, "Your entry completed this challenge: its items stay in it until the challenge ends.");
  }
  await lockCollectibles(tx, [...had, ...want]);
  const states = new Map((await itemStates(tx, want)).map((s) => [s.id, s]));
  const at = (id: string) => `body.collectibleIds.${input.collectibleIds.indexOf(id)}`;
  const notYours = want.filter((id) => states.get(id)?.ownerId !== userId);
  if (notYours.length)
    throw new DomainError(
      sharedErrors.NOT_FOUND,
      "Some collectibles are not yours (details name them).",
      notYours.map((id) => ({ path: at(id), message: "not found" })),
    );
  const perCard = new Map<string, number>();
  const bad: ErrorDetail[] = [];
  for (const id of input.collectibleIds) {
    const cardId = states.get(id)!.cardId;
    const n = (perCard.get(cardId) ?? 0) + 1;
    perCard.set(cardId, n);
    if (!required.has(cardId)) bad.push({ path: at(id), message: `card ${cardId} is not one this challenge asks for` });
    else if (n > required.get(cardId)!) bad.push({ path: at(id), message: `more copies of card ${cardId} than the ${required.get(cardId)} asked` });
  }
  if (bad.length) throw validationError("Some collectibles do not fit this challenge (details name them).", bad);
  const added = want.filter((id) => !had.includes(id));
  const listed = added.filter((id) => states.get(id)!.listed);
  if (listed.length)
    throw itemError(
      "ENTRY_ITEM_LISTED",
      "Some collectibles are listed or in an auction (details name them).",
      listed.map((id) => ({ path: at(id), message: "listed" })),
    );
  const minted = added.filter((id) => states.get(id)!.minted);
  if (minted.length)
    throw itemError(
      "ENTRY_ITEM_MINTED",
      "Some collectibles are minted or being minted (details name them).",
      minted.map((id) => ({ path: at(id), message: "minted" })),
    );
  const locked = (await lockedItems(tx, added)).filter((l) => l.holderId !== c.id);
  if (locked.length) {
    throw itemError(
      "ITEM_LOCKED",
      `Some collectibles are locked by another ${locked[0]!.kind} ("${locked[0]!.title}") (details name them).`,
      locked.map((l) => ({ path: at(l.collectibleId), message: `in ${lockedBy(l)}` })),
    );
  }
  const removed = had.filter((id) => !want.includes(id));
  if (removed.length) await deleteEntryItems(tx, entry.id, removed);
  if (added.length) {
    await releaseEndedLocks(tx, added);
    await insertEntryItems(
      tx,
      { entryId: entry.id, challengeId: c.id },
      added.map((id) => ({ id, cardId: states.get(id)!.cardId })),
    );
  }
  const complete = [...required].every(([cardId, count]) => (perCard.get(cardId) ?? 0) >= count);
  await touchEntry(tx, entry.id, complete);
  if (complete) await grantReward(tx, userId, c);
}

/**
 * The reward of a completion, in its transaction: the next rank (under the challenge's row lock), the copy of the
 * reward card with the serial the committed shuffle gives that rank (none past the supply), the Rep (grant key
 * challenge:<id>), and the reward row whose primary key (challenge, collector) makes all of it once per collector.
 */
async function grantReward(tx: DbTx, userId: string, c: ChallengeRow) {
  const rank = await takeRank(tx, c.id);
  const serial = c.rewardCardId && c.firstSerial !== null ? rewardSerialOf({ ...c, firstSerial: c.firstSerial }, rank) : null;
  const collectibleId = serial !== null ? uuidv7() : null;
  if (serial !== null) await insertRewardCopy(tx, { id: collectibleId!, cardId: c.rewardCardId!, serial, ownerId: userId, challengeId: c.id });
  await insertReward(tx, { challengeId: c.id, userId, rank, serial, collectibleId, repAwarded: c.repReward });
  if (c.repReward > 0) {
    await award(tx, userId, {
      earnKind: "challenge_completion",
      amount: c.repReward,
      source: "club",
      reason: `Challenge completed: ${c.title}`,
      grantKey: `challenge:${c.id}`,
      targetId: c.id,
    });
  }
}

export async function putEntry(db: Db, userId: string, challengeId: string, input: EntryInput, idempotency: IdempotencyKey | null) {
  const work = async (tx: DbTx) => {
    await putEntryTx(tx, userId, challengeId, input);
    const { row, challenge } = await oneChallenge(tx, challengeId);
    return { challenge, progress: await progressOf(tx, userId, row) };
  };
  try {
    if (idempotency) return await idempotent(db, { userId, ...idempotency, request: { challengeId, ...input } }, work);
    return { data: await db.$transaction(work, txOptions()), replayed: false } as Idempotent<Awaited<ReturnType<typeof work>>>;
  } catch (e) {
    // Backstop: the lock slot's unique index (an item in two entries at once) should never be reached past the checks.
    if (isUniqueViolation(e)) throw new DomainError(challengesErrors.ITEM_LOCKED, "A collectible named is in another entry now: read the challenge and retry.");
    throw e;
  }
}

/** Withdraws the caller's incomplete entry: its items are unlocked at once. A completed entry stays until the end. */
export async function withdrawEntry(db: Db, userId: string, challengeId: string) {
  return db.$transaction(async (tx) => {
    const c = await challengeById(tx, challengeId);
    if (!c) throw notFound("Challenge");
    if (c.endsAt.getTime() <= Date.now())
      throw new DomainError(challengesErrors.CHALLENGE_ENDED, "This challenge has ended: its entries' items are unlocked already.");
    const entry = await lockExistingEntry(tx, c.id, userId);
    if (!entry) throw notFound("Entry");
    if (entry.completedAt)
      throw new DomainError(challengesErrors.ENTRY_COMPLETED, "A completed entry cannot be withdrawn: its items unlock when the challenge ends.");
    await deleteEntry(tx, entry.id);
    const { row, challenge } = await oneChallenge(tx, challengeId);
    return { challenge, progress: await progressOf(tx, userId, row) };
  }, txOptions());
}

/** Staff create a challenge: its cards, its reward (the serials taken from the reward card's edition at once) and its committed seed. */
export async function createChallenge(db: Db, input: ChallengeCreateInput, actor: StaffActor) {
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  if (endsAt <= startsAt) throw validationError("endsAt must be after startsAt.", [{ path: "body.endsAt", message: "after startsAt" }]);
  if (endsAt.getTime() <= Date.now() || endsAt.getTime() > Date.now() + 366 * 86_400_000) {
    throw validationError("endsAt must be in the future, at most a year ahead.", [{ path: "body.endsAt", message: "in the future, at most a year ahead" }]);
  }
  const cardIds = [...input.cards.map((c) => c.cardId), ...(input.reward.cardId ? [input.reward.cardId] : [])];
  const known = await existingCards(db, cardIds);
  const unknown: ErrorDetail[] = input.cards.flatMap((c, i) => (known.has(c.cardId) ? [] : [{ path: `body.cards.${i}.cardId`, message: "no such card" }]));
  if (input.reward.cardId && !known.has(input.reward.cardId)) unknown.push({ path: "body.reward.cardId", message: "no such card" });
  if (unknown.length) throw validationError("Unknown cards (details name them).", unknown);
  const id = uuidv7();
  await db.$transaction(async (tx) => {
    let firstSerial: number | null = null;
    if (input.reward.cardId) {
      firstSerial = (await reserveSerials(tx, input.reward.cardId, input.reward.supply!)) ?? null;
      if (firstSerial === null)
        throw new DomainError(challengesErrors.REWARD_CARD_SHORT, `The reward card's edition has fewer than ${input.reward.supply} copies left.`);
    }
    const seed = newChallengeSeed();
    await insertChallenge(
      tx,
      {
        id,
        title: input.title,
        description: input.description ?? null,
        startsAt,
        endsAt,
        rewardCardId: input.reward.cardId ?? null,
        rewardSupply: input.reward.supply ?? 0,
        firstSerial,
        repReward: input.reward.rep,
        seed,
        seedHash: challengeSeedHash(seed),
      },
      input.cards,
    );
    await recordAudit(tx, actor, {
      action: "challenge.create",
      targetType: "challenge",
      targetId: id,
      after: { ...input, firstSerial, seedHash: challengeSeedHash(seed) },
    });
  }, txOptions());
  return { challenge: (await oneChallenge(db, id)).challenge };
}

/**
 * 409 ITEM_LOCKED, naming the challenge or contest, when an item is in an entry of a collection challenge that has not
 * ended or a lineup of a contest that has not settled (lockedItems in lib/features/challenges/queries.ts). Every path an item
 * could leave by calls this under the item's row lock (lockCollectible): listing, accepting an offer, checkout, a staff
 * refund, a mint request; trades check lockedItems for their own void reason. An entry or a lineup takes the same row
 * lock before it checks and locks an item.
 */
export async function refuseLocked(tx: DbTx, collectibleIds: string[]) {
  const locked = await lockedItems(tx, collectibleIds);
  if (locked.length === 0) return;
  const first = locked[0]!;
  throw new DomainError(
    challengesErrors.ITEM_LOCKED,
    first.kind === "contest"
      ? `This collectible is in a lineup of the contest "${first.title}" until the contest settles (or the lineup is withdrawn before its lock).`
      : `This collectible is in an entry of the challenge "${first.title}" until it ends (${first.endsAt!.toISOString()}) or the entry is withdrawn.`,
    locked.map((l) => ({ path: `collectibles.${l.collectibleId}`, message: `in ${lockedBy(l)}` })),
  );
}
