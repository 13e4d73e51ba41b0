import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client";
import { isUniqueViolation, lockUser, txOptions } from "../../db/tx";
import { log } from "../../kernel/log";
import { identityProvider } from "../../auth/identity-provider";
import { forgetStandings } from "../../core/leagues/service";
import { forgetTeamDetails } from "../../core/teams/service";
import { forgetQuests } from "../../features/quests/service";
import { debit } from "../../core/rep/service";
import { moveBoards } from "../../core/rep/leaderboard/service";
import { externalIdSchema, teamIdSchema, userQuerySchema, type QuestCreate, type QuestionCreate, type RewardCreate } from "./schemas";
import { auditForTarget, recordAudit, type StaffActor } from "../../core/audit/service";
import type { StaffRole } from "../../auth/roles";
import { decodeCursor, decodeIdCursor, encodeCursor, encodeIdCursor } from "../../kernel/cursor";
import { UUID_PATTERN } from "../../kernel/schemas";
import { getWallets } from "../../core/wallets/service";
import { transactionsOf } from "../../core/wallets/service";
import {
  FAN_SEARCH_PAGE,
  FAN_SECTION_ROWS,
  fanCollectibles,
  fanDevices,
  fanExports,
  fanListings,
  fanOffers,
  fanOrders,
  fanProfile,
  fanRepEntries,
  fanReports,
  fanSanctions,
  fanTeams,
  fanTrades,
  findEntities,
  fansExactly,
  findFans,
  lockRewardStock,
} from "./queries";
import { addToRewardStock } from "./writes";

// The staff console's actions: archive and restore teams, look users up, set a user's staff role. Roles live in the
// identity provider (Clerk public metadata role: admin, moderator, support or economy, copied into the session
// JWT's claims; lib/auth/roles.ts), so a change applies when the user's session token is next refreshed, not at once.

/**
 * Archives a live team (hidden from every public read) or restores an archived one. Conditional update, so a
 * repeated click changes nothing; the process's cached team details are dropped either way.
 * Returns the team's name, or null when there is no such team in the expected state.
 */
export async function setTeamArchived(db: Db, actor: StaffActor, teamId: string, archived: boolean): Promise<{ changed: boolean; name: string } | null> {
  const id = teamIdSchema.parse(teamId);
  const result = await db.$transaction(async (tx) => {
    const { count } = await tx.team.updateMany({
      where: { id, archivedAt: archived ? null : { not: null } },
      data: { archivedAt: archived ? new Date() : null },
    });
    if (count === 1) {
      await recordAudit(tx, actor, {
        action: archived ? "team.archive" : "team.restore",
        targetType: "team",
        targetId: id,
        before: { archived: !archived },
        after: { archived },
      });
    }
    const team = await tx.team.findUnique({ where: { id }, select: { name: true } });
    return team ? { changed: count === 1, name: team.name } : null;
  });
  forgetTeamDetails();
  forgetStandings();
  return result;
}

export type Role = StaffRole | "fan" | "unknown";

export interface ConsoleUser {
  externalId: string;
  id: string | null;
  handle: string | null;
  displayName: string | null;
  email: string | null;
  createdAt: Date | null;
  role: Role;
}

/** The role the identity provider holds for a user; "unknown" when it keeps none (development) or cannot answer. */
export async function providerRole(externalId: string): Promise<Role> {
  try {
    const user = await identityProvider().getUser(externalId);
    if (!user || user.role === null) return "unknown";
    return user.role === "none" ? "fan" : user.role;
  } catch (error) {
    log("warn", { msg: "identity provider role lookup failed", error: error instanceof Error ? error.message : String(error) });
    return "unknown";
  }
}

/** Users whose external id, handle, e-mail (both case-insensitive) or id is exactly the query: the console search's exact matches. */
export async function lookupUsers(db: Db, rawQuery: string): Promise<ConsoleUser[]> {
  const q = userQuerySchema.parse(rawQuery.replace(/^@/, ""));
  const found: Omit<ConsoleUser, "role">[] = await fansExactly(db, q, 20);
  // A user who never called the API has no row yet; the identity provider may still know the id.
  if (found.length === 0 && externalIdSchema.safeParse(q).success) {
    const remote = await identityProvider()
      .getUser(q)
      .catch(() => null);
    if (remote) found.push({ externalId: remote.externalId, id: null, handle: remote.username, displayName: null, email: remote.email, createdAt: null });
  }
  return Promise.all(found.map(async (u) => ({ ...u, role: await providerRole(u.externalId) })));
}

/**
 * Sets (or removes, null) a user's staff role in the identity provider, then records it in the audit log (the change
 * is the provider's, so it cannot share a transaction with the entry: the entry follows the provider's success).
 * Staff cannot change their own role (lock-out, and no one raises their own role).
 */
export async function setStaffRole(db: Db, actor: StaffActor, rawTarget: string, role: StaffRole | null): Promise<void> {
  const target = externalIdSchema.parse(rawTarget);
  if (target === actor.id) throw new SelfRevokeError();
  const before = await providerRole(target);
  await identityProvider().setRole(target, role);
  const row = await db.user.findUnique({ where: { externalId: target }, select: { id: true } });
  const audit = { action: "user.role_set", before: { role: before }, after: { role: role ?? "fan" } };
  await recordAudit(db, actor, row ? { ...audit, targetType: "user", targetId: row.id, note: target } : { ...audit, targetType: "identity", targetId: target });
  log("info", { msg: "staff role changed", actor: actor.id, target, role });
}

export class SelfRevokeError extends Error {
  constructor() {
    super("You cannot change your own staff role.");
    this.name = "SelfRevokeError";
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Engagement: quests and their question bank, rewards, Rep reversals. Quests, questions and rewards are never
// deleted: a quest is retired, a question or a reward deactivated, a ledger entry reversed by a new entry.

/** A console write that was refused: a result code the page turns into a message. Nothing was changed. */
export class ConsoleRefusal extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = "ConsoleRefusal";
  }
}

/** Creates a quest (id derived from its slug: `q_<slug>`). Refuses a taken slug, an unknown team or pass. */
export async function createQuest(db: Db, actor: StaffActor, q: QuestCreate): Promise<{ id: string }> {
  const id = `q_${q.slug.replace(/-/g, "_")}`;
  if (q.scope === "team" && !(await db.team.findUnique({ where: { id: q.teamId! }, select: { id: true } }))) throw new ConsoleRefusal("team");
  if (q.scope === "pass" && !(await db.pass.findUnique({ where: { id: q.passId! }, select: { id: true } }))) throw new ConsoleRefusal("pass");
  const data = {
    id,
    slug: q.slug,
    title: q.title,
    description: q.description ?? null,
    kind: q.kind,
    scope: q.scope,
    // A team quest's team; a global or pass quest may still name a team (e.g. a club's own pass quest).
    teamId: q.teamId ?? null,
    passId: q.scope === "pass" ? q.passId! : null,
    cadence: q.cadence,
    isDaily: q.cadence === "daily",
    repReward: q.repReward,
    repSource: q.repSource,
    quizLength: q.kind === "quiz" ? (q.quizLength ?? 5) : null,
    quizSeconds: q.kind === "quiz" ? (q.quizSeconds ?? 20) : null,
    availableFrom: q.availableFrom ?? null,
    availableUntil: q.availableUntil ?? null,
  };
  try {
    await db.$transaction(async (tx) => {
      await tx.quest.create({ data });
      await recordAudit(tx, actor, { action: "quest.create", targetType: "quest", targetId: id, after: data });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConsoleRefusal("slug");
    throw error;
  }
  return { id };
}

/** Schedules (or reschedules) a quest's window; empty bounds are open-ended. Retired quests stay retired. */
export async function setQuestWindow(db: Db, actor: StaffActor, questId: string, availableFrom: Date | null, availableUntil: Date | null): Promise<boolean> {
  const found = await db.$transaction(async (tx) => {
    const before = await tx.quest.findUnique({ where: { id: questId }, select: { availableFrom: true, availableUntil: true } });
    if (!before) return false;
    await tx.quest.update({ where: { id: questId }, data: { availableFrom, availableUntil } });
    const same = before.availableFrom?.getTime() === availableFrom?.getTime() && before.availableUntil?.getTime() === availableUntil?.getTime();
    if (!same)
      await recordAudit(tx, actor, { action: "quest.schedule", targetType: "quest", targetId: questId, before, after: { availableFrom, availableUntil } });
    return true;
  });
  forgetQuests(); // the window's end is part of the cached definition
  return found;
}

/** Retires a quest: never offered again, kept for history. Conditional, so a second click changes nothing. */
export async function retireQuest(db: Db, actor: StaffActor, questId: string): Promise<{ changed: boolean } | null> {
  const changed = await db.$transaction(async (tx) => {
    const { count } = await tx.quest.updateMany({ where: { id: questId, active: true }, data: { active: false, retiredAt: new Date() } });
    if (count === 1)
      await recordAudit(tx, actor, { action: "quest.retire", targetType: "quest", targetId: questId, before: { active: true }, after: { active: false } });
    return count === 1;
  });
  if (changed) return { changed: true };
  return (await db.quest.findUnique({ where: { id: questId }, select: { id: true } })) ? { changed: false } : null;
}

/** Adds a question to a quiz quest's bank. */
export async function addQuestion(db: Db, actor: StaffActor, q: QuestionCreate): Promise<{ id: string }> {
  const quest = await db.quest.findUnique({ where: { id: q.questId }, select: { kind: true } });
  if (!quest) throw new ConsoleRefusal("missing");
  if (quest.kind !== "quiz") throw new ConsoleRefusal("not_quiz");
  const id = `qq_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const data = { id, questId: q.questId, prompt: q.prompt, choices: q.choices, answerIndex: q.answerIndex };
  await db.$transaction(async (tx) => {
    await tx.quizQuestion.create({ data });
    await recordAudit(tx, actor, { action: "question.create", targetType: "question", targetId: id, after: data });
  });
  return { id };
}

/** Takes a question out of future quizzes (sessions already holding it keep it). A second click changes nothing. */
export async function deactivateQuestion(db: Db, actor: StaffActor, questId: string, questionId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.quizQuestion.updateMany({ where: { id: questionId, questId, active: true }, data: { active: false } });
    if (count === 1) {
      await recordAudit(tx, actor, {
        action: "question.deactivate",
        targetType: "question",
        targetId: questionId,
        before: { active: true },
        after: { active: false },
        note: questId,
      });
      return true;
    }
    return (await tx.quizQuestion.count({ where: { id: questionId, questId } })) === 1;
  });
}

/** Creates a reward (id `rw_<slug>`). Milestone rewards cost nothing; redeem rewards have no milestone. */
export async function createReward(db: Db, actor: StaffActor, r: RewardCreate): Promise<{ id: string }> {
  const id = `rw_${r.slug.replace(/-/g, "_")}`;
  const data = {
    id,
    slug: r.slug,
    title: r.title,
    description: r.description ?? null,
    kind: r.kind,
    costRep: r.costRep,
    stock: r.stock ?? null,
    perUserLimit: r.kind === "redeem" ? (r.perUserLimit ?? null) : null,
    milestone: r.kind === "milestone" ? r.milestone! : null,
    milestoneValue: r.kind === "milestone" ? r.milestoneValue! : null,
  };
  try {
    await db.$transaction(async (tx) => {
      await tx.reward.create({ data });
      await recordAudit(tx, actor, { action: "reward.create", targetType: "reward", targetId: id, after: data });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConsoleRefusal("slug");
    throw error;
  }
  return { id };
}

/**
 * Adds to or takes from a limited stock in one conditional UPDATE, so it never goes below 0 whatever redemptions run
 * at the same time. Refuses an unlimited stock ("unlimited") and a change past 0 ("below_zero").
 */
export async function adjustStock(db: Db, actor: StaffActor, rewardId: string, delta: number): Promise<number> {
  const stock = await db.$transaction(async (tx) => {
    const row = await addToRewardStock(tx, rewardId, delta);
    if (!row) return null;
    if (delta !== 0) {
      await recordAudit(tx, actor, {
        action: "reward.stock",
        targetType: "reward",
        targetId: rewardId,
        before: { stock: row.stock - delta },
        after: { stock: row.stock },
        note: `delta ${delta}`,
      });
    }
    return row.stock;
  });
  if (stock !== null) return stock;
  const reward = await db.reward.findUnique({ where: { id: rewardId }, select: { stock: true } });
  if (!reward) throw new ConsoleRefusal("missing");
  throw new ConsoleRefusal(reward.stock === null ? "unlimited" : "below_zero");
}

/** Sets the stock outright (null = unlimited). */
export async function setStock(db: Db, actor: StaffActor, rewardId: string, stock: number | null): Promise<void> {
  await db.$transaction(async (tx) => {
    const before = await lockRewardStock(tx, rewardId);
    if (!before) throw new ConsoleRefusal("missing");
    if (before.stock === stock) return;
    await tx.reward.update({ where: { id: rewardId }, data: { stock } });
    await recordAudit(tx, actor, { action: "reward.stock", targetType: "reward", targetId: rewardId, before, after: { stock } });
  });
}

export async function setRewardActive(db: Db, actor: StaffActor, rewardId: string, active: boolean): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.reward.updateMany({ where: { id: rewardId, active: !active }, data: { active } });
    if (count === 1) {
      await recordAudit(tx, actor, {
        action: active ? "reward.activate" : "reward.deactivate",
        targetType: "reward",
        targetId: rewardId,
        before: { active: !active },
        after: { active },
      });
    } else if (!(await tx.reward.findUnique({ where: { id: rewardId }, select: { id: true } }))) throw new ConsoleRefusal("missing");
  });
}

/**
 * Reverses a credit: a compensating negative entry written by debit() (earnKind "reversal", targetId the credit,
 * grant key `reversal:<entry id>`, so a credit is reversed at most once), under the user's row lock. Debits and
 * reversals are not reversible. Refusals: "missing", "not_credit", "already" (reversed before), "balance" (the
 * balance is lower than the credit: nothing changes). The original entry is never touched.
 */
export async function reverseEntry(db: Db, actor: StaffActor, userId: string, entryId: string, reason: string) {
  const reversed = await db.$transaction(async (tx) => {
    if (!(await lockUser(tx, userId))) throw new ConsoleRefusal("missing");
    const entry = await tx.repEntry.findFirst({ where: { id: entryId, userId } });
    if (!entry) throw new ConsoleRefusal("missing");
    const amount = Number(entry.amount);
    if (amount <= 0 || entry.earnKind === "reversal") throw new ConsoleRefusal("not_credit");
    const grantKey = `reversal:${entry.id}`;
    if (await tx.repEntry.findUnique({ where: { userId_grantKey: { userId, grantKey } }, select: { id: true } })) throw new ConsoleRefusal("already");
    const taken = await debit(tx, userId, {
      earnKind: "reversal",
      amount,
      source: entry.source,
      reason: `Reversed: ${reason}`,
      grantKey,
      targetId: entry.id,
    });
    if (!taken) throw new ConsoleRefusal("balance");
    await recordAudit(tx, actor, {
      action: "rep.reverse",
      targetType: "user",
      targetId: userId,
      before: { entryId: entry.id, amount, balance: taken.balance + amount },
      after: { reversalId: taken.entry.id, balance: taken.balance },
      note: reason,
    });
    log("info", { msg: "rep entry reversed", actor: actor.id, user: userId, entry: entry.id, amount, reversal: taken.entry.id });
    return { reversal: taken.entry, balance: taken.balance };
  }, txOptions());
  // A console action is not an API request: it moves the fan's leaderboard entries itself.
  await moveBoards([userId], new Date(), db);
  return reversed;
}

// ---------------------------------------------------------------------------------------------------------------
// Find anyone and the fan page (docs/decisions/0059).

/** The search box's answer: fans (a keyset page), and every other kind whose id is exactly q. */
export async function findAnyone(db: Db, q: string, cursor: string | undefined) {
  let after: { score: number; id: string } | undefined;
  let cursorInvalid = false;
  if (cursor) {
    try {
      const c = decodeCursor(cursor);
      const score = Number(c.sortKey);
      if (!Number.isFinite(score) || !UUID_PATTERN.test(c.id)) throw new Error("cursor");
      after = { score, id: c.id };
    } catch {
      cursorInvalid = true;
    }
  }
  const [rows, entities] = await Promise.all([findFans(db, q, after, FAN_SEARCH_PAGE + 1), after ? Promise.resolve([]) : findEntities(db, q)]);
  const fans = rows.slice(0, FAN_SEARCH_PAGE);
  const last = fans[fans.length - 1];
  return { fans, entities, cursorInvalid, nextCursor: rows.length > FAN_SEARCH_PAGE && last ? encodeCursor(last.score, last.id) : null };
}

/** What the identity provider reports, or why it could not: "none" (the provider keeps none) or "unavailable". */
async function signInsOf(externalId: string) {
  try {
    const list = await identityProvider().listSignIns(externalId, FAN_SECTION_ROWS);
    return list ? { state: "ok" as const, list } : { state: "none" as const, list: [] };
  } catch (error) {
    log("warn", { msg: "identity provider sign-ins lookup failed", error: error instanceof Error ? error.message : String(error) });
    return { state: "unavailable" as const, list: [] };
  }
}

/** Audit entries per page of the fan page's audit section. */
export const FAN_AUDIT_ROWS = 20;

/**
 * A fan's whole account for the console, every section read at once (one statement each, by indexed keys), plus
 * the identity provider's role and sign-ins. `wallet` and `audit` are keyset cursors of those two sections. Null:
 * no such user (any string that is not a user's uuid).
 */
export async function consoleFan(db: Db, userId: string, cursors: { wallet?: string; audit?: string } = {}) {
  const profile = await fanProfile(db, userId);
  if (!profile) return null;
  const id = profile.id;
  const idCursor = (c: string | undefined) => {
    try {
      return c ? decodeIdCursor(c) : undefined;
    } catch {
      return undefined; // a stale or mangled cursor: the first page
    }
  };
  const walletBefore = idCursor(cursors.wallet);
  const auditBefore = idCursor(cursors.audit);
  const [role, signIns, teams, rep, wallets, transactions, collectibles, listings, offers, trades, orders, reports, sanctions, devices, exports, audit] =
    await Promise.all([
      providerRole(profile.externalId),
      signInsOf(profile.externalId),
      fanTeams(db, id),
      fanRepEntries(db, id),
      getWallets(db, id),
      transactionsOf(db, id, "COIN", walletBefore, FAN_SECTION_ROWS + 1),
      fanCollectibles(db, id),
      fanListings(db, id),
      fanOffers(db, id),
      fanTrades(db, id),
      fanOrders(db, id),
      fanReports(db, id),
      fanSanctions(db, id),
      fanDevices(db, id),
      fanExports(db, id),
      auditForTarget(db, "user", id, auditBefore && cursors.audit, FAN_AUDIT_ROWS),
    ]);
  const page = <T extends { id: string }>(rows: T[], n: number) => ({
    rows: rows.slice(0, n),
    nextCursor: rows.length > n ? encodeIdCursor(rows[n - 1]!.id) : null,
  });
  return {
    profile,
    role,
    signIns,
    teams,
    rep,
    wallets: wallets.wallets,
    transactions: { ...page(transactions, FAN_SECTION_ROWS), paged: Boolean(walletBefore) },
    collectibles,
    listings,
    offers,
    trades,
    orders,
    reports,
    sanctions,
    devices,
    exports,
    audit: { rows: audit.entries, nextCursor: audit.nextCursor ?? null, paged: Boolean(auditBefore) },
  };
}
export type ConsoleFan = NonNullable<Awaited<ReturnType<typeof consoleFan>>>;
