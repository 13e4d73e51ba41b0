import { Prisma } from "../../generated/prisma/client";
import { UUID_PATTERN } from "../../kernel/schemas";
import type { Db, DbTx } from "../../db/client";
import { teamIdSchema, type TeamSearch } from "./schemas";
import { raw, rawTransaction } from "../../db/raw";

// The staff console's reads: dashboard counts, leagues with team counts, team search and names.

export interface DashboardCounts {
  users: number;
  leagues: number;
  liveTeams: number;
  archivedTeams: number;
  lastSync: { id: string; scope: string; status: string; trigger: string; actor: string | null; startedAt: Date; finishedAt: Date | null } | null;
}

/** Console dashboard: one round trip for the counts, one for the latest sync run. */
export async function dashboardCounts(db: Db): Promise<DashboardCounts> {
  const [[counts], lastSync] = await Promise.all([
    raw(db).$queryRaw<{ users: number; leagues: number; liveTeams: number; archivedTeams: number }[]>`
      SELECT (SELECT count(*)::int FROM users) AS users,
             (SELECT count(*)::int FROM leagues WHERE archived_at IS NULL) AS leagues,
             (SELECT count(*)::int FROM teams WHERE archived_at IS NULL) AS "liveTeams",
             (SELECT count(*)::int FROM teams WHERE archived_at IS NOT NULL) AS "archivedTeams"`,
    db.syncRun.findFirst({
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true, scope: true, status: true, trigger: true, actor: true, startedAt: true, finishedAt: true },
    }),
  ]);
  return { ...counts!, lastSync };
}

export interface ConsoleLeagueRow {
  id: string;
  slug: string;
  name: string;
  sport: string;
  season: string | null;
  source: string;
  archivedAt: Date | null;
  liveTeams: number;
  archivedTeams: number;
}

/** Every league with its live and archived team counts, in display order. */
export function listLeaguesWithCounts(db: Db): Promise<ConsoleLeagueRow[]> {
  return raw(db).$queryRaw<ConsoleLeagueRow[]>`
    SELECT l.id, l.slug, l.name, l.sport, l.season, l.source, l.archived_at AS "archivedAt",
           count(t.id) FILTER (WHERE t.archived_at IS NULL)::int AS "liveTeams",
           count(t.id) FILTER (WHERE t.archived_at IS NOT NULL)::int AS "archivedTeams"
    FROM leagues l LEFT JOIN teams t ON t.league_id = l.id
    GROUP BY l.id
    ORDER BY l.display_order, l.name`;
}

export const TEAM_SEARCH_LIMIT = 100;

/** Teams by name or slug (case-insensitive substring), optionally in one league, archived ones only when asked. */
export async function searchConsoleTeams(db: Db, search: TeamSearch) {
  const where: Prisma.TeamWhereInput = {};
  if (search.q) {
    where.OR = [{ name: { contains: search.q, mode: "insensitive" } }, { slug: { contains: search.q.toLowerCase() } }];
  }
  if (search.league) where.leagueId = search.league;
  if (!search.archived) where.archivedAt = null;
  const [teams, total] = await Promise.all([
    db.team.findMany({
      where,
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: TEAM_SEARCH_LIMIT,
      select: { id: true, slug: true, name: true, sport: true, source: true, archivedAt: true, league: { select: { id: true, name: true } } },
    }),
    db.team.count({ where }),
  ]);
  return { teams, total };
}

export async function leagueOptions(db: Db) {
  return db.league.findMany({ orderBy: [{ displayOrder: "asc" }, { name: "asc" }], select: { id: true, name: true } });
}

export async function teamName(db: Db, teamId: string): Promise<string | null> {
  const id = teamIdSchema.safeParse(teamId);
  if (!id.success) return null;
  return (await db.team.findUnique({ where: { id: id.data }, select: { name: true } }))?.name ?? null;
}

// Engagement: quests, the question bank (answers included: the console is the only place they are shown),
// rewards and a user's Rep ledger.

export const CONSOLE_QUEST_LIMIT = 200;

/** Quests, active first, newest first, with their team's name and how many active questions a quiz has. */
export async function listConsoleQuests(db: Db) {
  const [quests, total] = await Promise.all([
    db.quest.findMany({
      orderBy: [{ active: "desc" }, { createdAt: "desc" }, { id: "asc" }],
      take: CONSOLE_QUEST_LIMIT,
      select: {
        id: true,
        slug: true,
        title: true,
        kind: true,
        scope: true,
        cadence: true,
        repReward: true,
        repSource: true,
        active: true,
        retiredAt: true,
        availableFrom: true,
        availableUntil: true,
        team: { select: { id: true, name: true } },
        pass: { select: { id: true, name: true } },
        _count: { select: { questions: { where: { active: true } } } },
      },
    }),
    db.quest.count(),
  ]);
  return { quests: quests.map((q) => ({ ...q, repReward: Number(q.repReward) })), total };
}

/** One quest with its whole question bank (answers included), newest question first. */
export async function consoleQuest(db: Db, questId: string) {
  const id = teamIdSchema.safeParse(questId);
  if (!id.success) return null;
  const quest = await db.quest.findUnique({
    where: { id: id.data },
    include: {
      team: { select: { id: true, name: true } },
      pass: { select: { id: true, name: true } },
      questions: { orderBy: [{ active: "desc" }, { createdAt: "desc" }, { id: "asc" }] },
    },
  });
  return quest && { ...quest, repReward: Number(quest.repReward) };
}

/** Live teams for the quest form's team picker. */
export function teamOptions(db: Db) {
  return db.team.findMany({ where: { archivedAt: null }, orderBy: [{ name: "asc" }, { id: "asc" }], select: { id: true, name: true } });
}

export function passOptions(db: Db) {
  return db.pass.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: { id: true, name: true, kind: true } });
}

/** Locks the reward's row for a stock change, answering its stock (null = unlimited); undefined when there is no such reward. */
export async function lockRewardStock(tx: DbTx, rewardId: string): Promise<{ stock: number | null } | undefined> {
  const [before] = await raw(tx).$queryRaw<{ stock: number | null }[]>`SELECT stock FROM rewards WHERE id = ${rewardId} FOR UPDATE`;
  return before;
}

/** Every reward (active first) with how many times it was redeemed or claimed. */
export async function listConsoleRewards(db: Db) {
  const rewards = await db.reward.findMany({
    orderBy: [{ active: "desc" }, { kind: "asc" }, { costRep: "asc" }, { id: "asc" }],
    include: { _count: { select: { claims: true } } },
  });
  return rewards.map((r) => ({ ...r, costRep: Number(r.costRep) }));
}

export const CONSOLE_LEDGER_LIMIT = 200;

/**
 * A user's account and newest ledger entries, each credit with the reversal that undid it (grant key
 * `reversal:<entry id>`), if any.
 */
export async function consoleLedger(db: Db, userId: string) {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, externalId: true, handle: true, displayName: true, repBalance: true },
  });
  if (!user) return null;
  const [rows, total] = await Promise.all([
    db.repEntry.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: CONSOLE_LEDGER_LIMIT }),
    db.repEntry.count({ where: { userId } }),
  ]);
  const entries = rows.map((e) => ({ ...e, amount: Number(e.amount) }));
  const reversals = new Map(entries.filter((e) => e.earnKind === "reversal" && e.targetId).map((e) => [e.targetId!, e]));
  const missing = entries.filter((e) => e.amount > 0 && !reversals.has(e.id)).map((e) => `reversal:${e.id}`);
  // Reversals older than the page shown (rare): one more read for the credits on it.
  if (missing.length) {
    const older = await db.repEntry.findMany({ where: { userId, grantKey: { in: missing } } });
    for (const e of older) if (e.targetId) reversals.set(e.targetId, { ...e, amount: Number(e.amount) });
  }
  return {
    user: { ...user, repBalance: Number(user.repBalance) },
    total,
    entries: entries.map((e) => ({ ...e, reversedBy: reversals.get(e.id) ?? null })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Find anyone (the console's search box) and a fan's whole page (docs/decisions/0059). Every read goes by an indexed
// key; each section of the fan page is one statement reading its newest FAN_SECTION_ROWS rows.

/** Fans on one page of the console's search. */
export const FAN_SEARCH_PAGE = 20;
/** At most this many candidates from the trigram indexes are ranked (as lib/features/search's NAME_CANDIDATES, decision 0043). */
export const FAN_NAME_CANDIDATES = 200;

export interface FanHit {
  id: string;
  externalId: string;
  handle: string | null;
  displayName: string | null;
  email: string | null;
  createdAt: Date;
  score: number;
}

/** The smallest string greater than every string starting with `prefix` (its last code point plus one). */
function prefixEnd(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  return points.join("") + String.fromCodePoint(last + 1);
}

const FAN_COLUMNS = Prisma.sql`u.id::text AS id, u.external_id AS "externalId", u.handle, u.display_name AS "displayName", u.email, u.created_at AS "createdAt"`;

/** A user `u` whose external id, handle, e-mail (both case-insensitive) or id is exactly q: each one an index read. */
function exactFanConditions(q: string): Prisma.Sql[] {
  const key = q.toLowerCase();
  const exact = [Prisma.sql`u.external_id = ${q}`, Prisma.sql`u.handle_key = ${key}`, Prisma.sql`lower(u.email) = ${key}`];
  if (UUID_PATTERN.test(q)) exact.push(Prisma.sql`u.id = ${key}::uuid`);
  return exact;
}

/** The users exactly matching q (see exactFanConditions), oldest first: the role page's look-up. */
export function fansExactly(db: Db, q: string, take: number): Promise<Omit<FanHit, "score">[]> {
  return raw(db).$queryRaw`
    SELECT ${FAN_COLUMNS} FROM users u WHERE ${Prisma.join(exactFanConditions(q), " OR ")} ORDER BY u.created_at, u.id LIMIT ${take}`;
}

/**
 * Fans matching q, best first, a keyset page on (score, id): exact matches (user id, external id, handle, e-mail)
 * score 3; e-mails starting with q 2 (the lower(email) index, as a range); handles and display names by pg_trgm word
 * similarity (at most FAN_NAME_CANDIDATES from the trigram indexes) 1 for a handle starting with q, plus the
 * similarity. Unlike the fans' own search (lib/features/search), staff see every account, deleted ones and ones without a handle.
 */
export async function findFans(db: Db, q: string, after: { score: number; id: string } | undefined, take: number): Promise<FanHit[]> {
  const key = q.toLowerCase();
  const parts = exactFanConditions(q).map((cond) => Prisma.sql`(SELECT ${FAN_COLUMNS}, 3::float8 AS score FROM users u WHERE ${cond})`);
  if (key.length >= 3) {
    parts.push(Prisma.sql`(SELECT ${FAN_COLUMNS}, 2::float8 AS score FROM users u
      WHERE lower(u.email) ~>=~ ${key} AND lower(u.email) ~<~ ${prefixEnd(key)} ORDER BY lower(u.email) USING ~<~ LIMIT ${FAN_NAME_CANDIDATES})`);
    parts.push(Prisma.sql`(SELECT ${FAN_COLUMNS},
        ((CASE WHEN starts_with(u.handle_key, ${key}) THEN 1 ELSE 0 END)
         + greatest(COALESCE(word_similarity(${key}, u.handle_key), 0), COALESCE(word_similarity(${q}, u.display_name), 0)))::float8 AS score
      FROM users u WHERE ${key} <% u.handle_key OR ${q} <% u.display_name LIMIT ${FAN_NAME_CANDIDATES})`);
  }
  const keyset = after ? Prisma.sql`WHERE (s.score, s.id) < (${after.score}::float8, ${after.id})` : Prisma.empty;
  // A custom plan, planned with q itself: the generic plan (this project's default, lib/db/client.ts) guesses 1% of the
  // table per `<%`, so with the candidates' LIMIT it chose a sequential scan that read all 1,000,000 users for a q
  // matching none (seconds); planned with q, the trigram indexes are read (docs/decisions/0059).
  return rawTransaction(db, async (tx) => {
    await tx.$executeRaw`SET LOCAL plan_cache_mode = force_custom_plan`;
    // One row per fan: its best score.
    return tx.$queryRaw<FanHit[]>`
      SELECT s.* FROM (
        SELECT DISTINCT ON (c.id) c.* FROM (${Prisma.join(parts, " UNION ALL ")}) c ORDER BY c.id, c.score DESC
      ) s ${keyset}
      ORDER BY s.score DESC, s.id DESC
      LIMIT ${take}`;
  });
}

export interface EntityHit {
  kind: "team" | "post" | "listing" | "collectible" | "order" | "trade";
  id: string;
  label: string;
  /** The fan the entity belongs to (author, seller, owner, buyer, proposer), for the link to their page. */
  userId: string | null;
  extra: string | null;
}

/**
 * Teams, posts, listings, collectibles, orders (top-ups and pack purchases) and trades whose id is exactly q, in one
 * statement of primary-key reads: a uuid is looked up in the uuid-keyed tables, anything else as a team id or slug.
 */
export function findEntities(db: Db, q: string): Promise<EntityHit[]> {
  if (!UUID_PATTERN.test(q)) {
    if (!/^[A-Za-z0-9_:.-]{1,200}$/.test(q)) return Promise.resolve([]);
    return raw(db).$queryRaw<EntityHit[]>`
      SELECT 'team' AS kind, t.id, t.name AS label, NULL AS "userId", t.slug AS extra FROM teams t WHERE t.id = ${q} OR t.slug = ${q.toLowerCase()}`;
  }
  const id = q.toLowerCase();
  return raw(db).$queryRaw<EntityHit[]>`
    SELECT 'post' AS kind, p.id::text AS id, left(p.content, 80) AS label, p.author_id::text AS "userId", NULL AS extra FROM posts p WHERE p.id = ${id}::uuid
    UNION ALL
    SELECT 'listing', l.id::text, l.kind::text || ' ' || l.status::text, l.seller_id::text, l.price::text FROM listings l WHERE l.id = ${id}::uuid
    UNION ALL
    SELECT 'collectible', c.id::text, k.name || ' #' || c.serial, c.owner_id::text, NULL FROM collectibles c JOIN collectible_cards k ON k.id = c.card_id WHERE c.id = ${id}::uuid
    UNION ALL
    SELECT 'order', cp.id::text, 'top-up ' || cp.state, cp.user_id::text, cp.coins::text FROM coin_purchases cp WHERE cp.id = ${id}::uuid
    UNION ALL
    SELECT 'order', pp.id::text, 'pack ' || pp.pack_id, pp.user_id::text, pp.price::text FROM pack_purchases pp WHERE pp.id = ${id}::uuid
    UNION ALL
    SELECT 'trade', tr.id::text, 'trade ' || tr.status::text, tr.proposer_id::text, NULL FROM trades tr WHERE tr.id = ${id}::uuid`;
}

/** Rows per section of the fan page (the newest). */
export const FAN_SECTION_ROWS = 10;

/** A fan's account row with its deletion state; null when there is no such user (or the id is not a uuid). */
export async function fanProfile(db: Db, userId: string) {
  if (!UUID_PATTERN.test(userId)) return null;
  const user = await db.user.findUnique({ where: { id: userId }, include: { deletion: true } });
  if (!user) return null;
  const { repBalance, questPoints, repSpent, ...rest } = user;
  return {
    ...rest,
    repBalance: Number(repBalance),
    questPoints: Number(questPoints),
    repSpent: Number(repSpent),
    deletion: user.deletion && { ...user.deletion, coinsForfeited: user.deletion.coinsForfeited === null ? null : Number(user.deletion.coinsForfeited) },
  };
}

/** The fan's teams: joined, followed and starred (each newest first, at most FAN_SECTION_ROWS), with their names. */
export function fanTeams(db: Db, userId: string) {
  const n = FAN_SECTION_ROWS;
  return raw(db).$queryRaw<{ relation: "joined" | "followed" | "starred"; teamId: string; name: string | null; since: Date }[]>`
    SELECT r.relation, r."teamId", t.name, r.since FROM (
      (SELECT 'joined' AS relation, m.team_id AS "teamId", m.created_at AS since FROM team_members m WHERE m.user_id = ${userId}::uuid ORDER BY m.team_id LIMIT ${n})
      UNION ALL
      (SELECT 'followed', f.team_id, f.created_at FROM team_follows f WHERE f.user_id = ${userId}::uuid ORDER BY f.created_at DESC, f.team_id DESC LIMIT ${n})
      UNION ALL
      (SELECT 'starred', s.team_id, s.starred_at FROM starred_teams s WHERE s.user_id = ${userId}::uuid ORDER BY s.starred_at DESC LIMIT ${n})
    ) r LEFT JOIN teams t ON t.id = r."teamId"`;
}

/** The fan's newest Rep ledger entries, each credit with the reversal that undid it (its grant key), if any. */
export async function fanRepEntries(db: Db, userId: string) {
  const rows = await raw(db).$queryRaw<
    { id: string; amount: bigint; earnKind: string; source: string; reason: string; createdAt: Date; reversedAt: Date | null }[]
  >`
    SELECT e.id::text AS id, e.amount, e.earn_kind AS "earnKind", e.source::text AS source, e.reason, e.created_at AS "createdAt", r.created_at AS "reversedAt"
    FROM (SELECT * FROM rep_entries WHERE user_id = ${userId}::uuid ORDER BY created_at DESC, id DESC LIMIT ${FAN_SECTION_ROWS}) e
    LEFT JOIN rep_entries r ON r.user_id = e.user_id AND r.grant_key = 'reversal:' || e.id::text
    ORDER BY e.created_at DESC, e.id DESC`;
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

/** The fan's newest collectibles with their card. */
export function fanCollectibles(db: Db, userId: string) {
  return raw(db).$queryRaw<{ id: string; serial: number; cardName: string; rarity: string; acquiredAt: Date }[]>`
    SELECT c.id::text AS id, c.serial, k.name AS "cardName", k.rarity::text AS rarity, c.acquired_at AS "acquiredAt"
    FROM (SELECT * FROM collectibles WHERE owner_id = ${userId}::uuid ORDER BY id DESC LIMIT ${FAN_SECTION_ROWS}) c
    JOIN collectible_cards k ON k.id = c.card_id
    ORDER BY c.id DESC`;
}

export async function fanListings(db: Db, userId: string) {
  const rows = await db.listing.findMany({
    where: { sellerId: userId },
    orderBy: { id: "desc" },
    take: FAN_SECTION_ROWS,
    select: { id: true, kind: true, status: true, price: true, salePrice: true, cardId: true, createdAt: true, closedAt: true },
  });
  return rows.map((l) => ({ ...l, price: Number(l.price), salePrice: l.salePrice === null ? null : Number(l.salePrice) }));
}

export async function fanOffers(db: Db, userId: string) {
  const rows = await db.offer.findMany({
    where: { buyerId: userId },
    orderBy: { id: "desc" },
    take: FAN_SECTION_ROWS,
    select: { id: true, collectibleId: true, amount: true, status: true, createdAt: true, expiresAt: true },
  });
  return rows.map((o) => ({ ...o, amount: Number(o.amount) }));
}

/** Trades the fan proposed or received, newest first (two index reads, merged). */
export async function fanTrades(db: Db, userId: string) {
  const n = FAN_SECTION_ROWS;
  const rows = await raw(db).$queryRaw<{ id: string; role: string; otherId: string; status: string; offerCoins: bigint; askCoins: bigint; createdAt: Date }[]>`
    SELECT * FROM (
      (SELECT t.id::text AS id, 'proposed' AS role, t.recipient_id::text AS "otherId", t.status::text AS status, t.offer_coins AS "offerCoins", t.ask_coins AS "askCoins", t.created_at AS "createdAt"
       FROM trades t WHERE t.proposer_id = ${userId}::uuid ORDER BY t.id DESC LIMIT ${n})
      UNION ALL
      (SELECT t.id::text, 'received', t.proposer_id::text, t.status::text, t.offer_coins, t.ask_coins, t.created_at
       FROM trades t WHERE t.recipient_id = ${userId}::uuid ORDER BY t.id DESC LIMIT ${n})
    ) x ORDER BY x.id DESC LIMIT ${n}`;
  return rows.map((r) => ({ ...r, offerCoins: Number(r.offerCoins), askCoins: Number(r.askCoins) }));
}

/** Orders: coin top-ups and pack purchases, newest first. */
export async function fanOrders(db: Db, userId: string) {
  const n = FAN_SECTION_ROWS;
  const rows = await raw(db).$queryRaw<{ id: string; kind: string; what: string; state: string; amount: bigint; currency: string; createdAt: Date }[]>`
    SELECT * FROM (
      (SELECT cp.id::text AS id, 'top-up' AS kind, cp.product_id AS what, cp.state, cp.amount, cp.currency, cp.created_at AS "createdAt"
       FROM coin_purchases cp WHERE cp.user_id = ${userId}::uuid ORDER BY cp.id DESC LIMIT ${n})
      UNION ALL
      (SELECT pp.id::text, 'pack', pp.pack_id, CASE WHEN pp.opened_at IS NULL THEN 'unopened' ELSE 'opened' END, pp.price, pp.currency::text, pp.created_at
       FROM pack_purchases pp WHERE pp.user_id = ${userId}::uuid ORDER BY pp.id DESC LIMIT ${n})
    ) x ORDER BY x.id DESC LIMIT ${n}`;
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

/** Reports the fan filed and reports against the fan's account, newest first. */
export function fanReports(db: Db, userId: string) {
  const n = FAN_SECTION_ROWS;
  return raw(db).$queryRaw<
    { id: string; direction: "filed" | "received"; reason: string; target: string; createdAt: Date; resolvedAt: Date | null; resolution: string | null }[]
  >`
    SELECT * FROM (
      (SELECT r.id::text AS id, 'filed' AS direction, r.reason::text AS reason,
              COALESCE('user ' || r.target_user_id::text, 'post ' || r.post_id::text, 'comment ' || r.comment_id::text, 'listing ' || r.listing_id::text, 'binder ' || r.binder_id::text, '') AS target,
              r.created_at AS "createdAt", r.resolved_at AS "resolvedAt", r.resolution
       FROM reports r WHERE r.reporter_id = ${userId}::uuid ORDER BY r.id DESC LIMIT ${n})
      UNION ALL
      (SELECT r.id::text, 'received', r.reason::text, 'by ' || r.reporter_id::text, r.created_at, r.resolved_at, r.resolution
       FROM reports r WHERE r.target_user_id = ${userId}::uuid ORDER BY r.id DESC LIMIT ${n})
    ) x ORDER BY x.id DESC`;
}

/** Moderation actions against the fan, newest first, each with its appeal (one per action). */
export function fanSanctions(db: Db, userId: string) {
  return raw(db).$queryRaw<
    {
      id: string;
      kind: string;
      reason: string;
      staffId: string;
      createdAt: Date;
      endsAt: Date | null;
      liftedAt: Date | null;
      appealStatus: string | null;
      appealText: string | null;
    }[]
  >`
    SELECT a.id::text AS id, a.kind::text AS kind, a.reason, a.staff_id AS "staffId", a.created_at AS "createdAt", a.ends_at AS "endsAt", a.lifted_at AS "liftedAt",
           ap.status::text AS "appealStatus", ap.text AS "appealText"
    FROM (SELECT * FROM moderation_actions WHERE user_id = ${userId}::uuid ORDER BY id DESC LIMIT ${FAN_SECTION_ROWS}) a
    LEFT JOIN moderation_appeals ap ON ap.action_id = a.id
    ORDER BY a.id DESC`;
}

export function fanDevices(db: Db, userId: string) {
  return db.device.findMany({
    where: { userId },
    orderBy: { id: "desc" },
    take: FAN_SECTION_ROWS,
    select: { id: true, provider: true, platform: true, appVersion: true, locale: true, createdAt: true, updatedAt: true },
  });
}

export function fanExports(db: Db, userId: string) {
  return db.dataExport.findMany({
    where: { userId },
    orderBy: { id: "desc" },
    take: FAN_SECTION_ROWS,
    select: { id: true, status: true, createdAt: true, readyAt: true, expiresAt: true, sizeBytes: true, lastError: true },
  });
}
