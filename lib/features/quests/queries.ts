import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { utcDay } from "../../time";
import { int8, raw, type Int8 } from "../../db/raw";
import { inItemOrder } from "../../db/batch";
import { QUIZ_GRACE_MS } from "./quiz";

export interface CompletionRow {
  questId: string;
  slug: string;
  title: string;
  description: string | null;
  teamId: string | null;
  repReward: number;
  isDaily: boolean;
  completedAt: Date;
}

export const toCompletedQuest = (r: CompletionRow) => ({ ...r, completedAt: r.completedAt.toISOString() });

/** A user's completions joined with their quests, newest first (completedAt desc, questId desc), after the cursor. */
export async function completionsOf(db: DbTx, userId: string, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (c.completed_at, c.quest_id) < (${after.at}::timestamptz, ${after.id}::text)` : Prisma.empty;
  const rows = await raw(db).$queryRaw<Int8<CompletionRow, "repReward">[]>`
    SELECT q.id AS "questId", q.slug, q.title, q.description, q.team_id AS "teamId", q.rep_reward AS "repReward",
           q.is_daily AS "isDaily", c.completed_at AS "completedAt"
    FROM quest_progress c JOIN quests q ON q.id = c.quest_id
    WHERE c.user_id = ${userId}::uuid AND c.completed_at IS NOT NULL ${keyset}
    ORDER BY c.completed_at DESC, c.quest_id DESC LIMIT ${take}`;
  return rows.map((r) => int8(r, ["repReward"]));
}

// ---------------------------------------------------------------------------------------------------------------
// The engine's reads: eligible quests, their steps and the caller's progress, each in one batched query.

export interface QuestRow {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  teamId: string | null;
  passId: string | null;
  kind: "quiz" | "check_in" | "visit" | "multi_step";
  scope: "global" | "team" | "pass";
  cadence: "daily" | "once";
  repReward: number;
  repSource: "fanAmp" | "club" | "playerAmp" | "serviceDirect";
  quizLength: number | null;
  quizSeconds: number | null;
  availableUntil: Date | null;
}

/**
 * Narrows eligibleQuests: one quest; or what a check-in at a team touches: that team's check-in quest, and quests of
 * that team or none with an arena_check_in step the user has not done in `periodKeys`.
 */
export type QuestFilter = string | { checkInAt: string | Prisma.Sql; periodKeys: string[] | Prisma.Sql };

/** A value, or (in a statement over many users) the column or expression that holds it. */
type Of<T> = T | Prisma.Sql;

function narrow(userId: Of<string>, only: QuestFilter | undefined): Prisma.Sql {
  if (only === undefined) return Prisma.empty;
  if (typeof only === "string") return Prisma.sql`AND q.id = ${only}`;
  // Quests of any team but this one cannot be met by a check-in at this team.
  return Prisma.sql`AND (q.team_id IS NULL OR q.team_id = ${only.checkInAt})
    AND ((q.kind = 'check_in' AND q.team_id = ${only.checkInAt})
      OR EXISTS (SELECT 1 FROM quest_steps s WHERE s.quest_id = q.id AND s.condition = 'arena_check_in'
                 AND NOT EXISTS (SELECT 1 FROM quest_step_progress sp
                                 WHERE sp.user_id = ${userId}::uuid AND sp.step_id = s.id AND sp.period_key = ANY(${only.periodKeys}))))`;
}

const QUEST_COLUMNS = Prisma.sql`
    q.id, q.slug, q.title, q.description, q.team_id AS "teamId", q.pass_id AS "passId", q.kind::text AS kind,
    q.scope::text AS scope, q.cadence::text AS cadence, q.rep_reward AS "repReward", q.rep_source::text AS "repSource",
    q.quiz_length AS "quizLength", q.quiz_seconds AS "quizSeconds", q.available_until AS "availableUntil"`;

/**
 * The quests `userId` may take at `now` (eligibleQuests): active, not retired, inside availableFrom/availableUntil, and global, of a
 * team the user follows or joined (scope team), or gated by a pass the user holds unexpired (scope pass). One query;
 * `only` narrows it (a quest id: empty when unknown or not eligible).
 */
function eligibleSql(userId: Of<string>, now: Of<Date>, only?: QuestFilter): Prisma.Sql {
  return Prisma.sql`
    SELECT ${QUEST_COLUMNS},
           row_number() OVER (ORDER BY q.cadence, q.team_id NULLS FIRST, q.kind, q.id) AS ord
    FROM quests q
    WHERE q.active AND q.retired_at IS NULL
      AND (q.available_from IS NULL OR q.available_from <= ${now}::timestamptz)
      AND (q.available_until IS NULL OR q.available_until > ${now}::timestamptz)
      AND (q.scope = 'global'
        OR (q.scope = 'team' AND q.team_id IN (SELECT team_id FROM team_follows WHERE user_id = ${userId}::uuid
                                               UNION SELECT team_id FROM team_members WHERE user_id = ${userId}::uuid))
        OR (q.scope = 'pass' AND EXISTS (SELECT 1 FROM user_passes up WHERE up.user_id = ${userId}::uuid AND up.pass_id = q.pass_id
                                          AND (up.expires_at IS NULL OR up.expires_at > ${now}::timestamptz))))
      ${narrow(userId, only)}`;
}

const withoutOrd = ({ ord: _ord, ...q }: QuestRow & { ord: unknown }): QuestRow => q;

export async function eligibleQuests(db: DbTx, userId: string, now: Date, only?: QuestFilter): Promise<QuestRow[]> {
  const rows = await raw(db).$queryRaw<Int8<QuestRow & { ord: unknown }, "repReward">[]>`${eligibleSql(userId, now, only)} ORDER BY ord`;
  return rows.map((r) => withoutOrd(int8(r, ["repReward"])));
}

export interface ProgressRow {
  questId: string;
  started: boolean;
  completedAt: Date | null;
  repAwarded: number | null;
  timesCompleted: number;
}

export interface StepRow {
  id: string;
  questId: string;
  position: number;
  title: string;
  condition: string | null;
  done: boolean;
}

/** The steps of the quests `ids` (a subquery of quest ids) as a jsonb array of StepRow: done in the quest's current period. */
function stepsJson(userId: Of<string>, today: Of<string>, ids: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
      (SELECT COALESCE(jsonb_agg(x ORDER BY x."questId", x.position), '[]') FROM (
         SELECT s.id, s.quest_id AS "questId", s.position, s.title, s.condition::text AS condition, (sp.step_id IS NOT NULL) AS done
         FROM quest_steps s JOIN quests q ON q.id = s.quest_id
         LEFT JOIN quest_step_progress sp ON sp.user_id = ${userId}::uuid AND sp.step_id = s.id
           AND sp.period_key = CASE WHEN q.cadence = 'daily' THEN ${today}::text ELSE 'once' END
         WHERE s.quest_id IN (${ids})) x)`;
}

export interface QuestState {
  progress: ProgressRow[];
  steps: StepRow[];
  sessions: SessionSummaryRow[];
  /** An active quiz session of the user (any day) whose current question's window (deadline + grace) has closed. */
  expiredSession: boolean;
}

/**
 * The state of the quests `ids` (a subquery of quest ids) for the user at `now` (`today` is its UTC day): columns
 * progress, steps, sessions, expiredSession.
 */
function questStateColumns(userId: Of<string>, now: Of<Date>, today: Of<string>, graceMs: number, ids: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
      (SELECT COALESCE(jsonb_agg(x), '[]') FROM (
         SELECT p.quest_id AS "questId",
                bool_or(p.period_key = CASE WHEN q.cadence = 'daily' THEN ${today}::text ELSE 'once' END) AS started,
                max(p.completed_at) FILTER (WHERE p.period_key = CASE WHEN q.cadence = 'daily' THEN ${today}::text ELSE 'once' END) AS "completedAt",
                max(p.rep_awarded) FILTER (WHERE p.period_key = CASE WHEN q.cadence = 'daily' THEN ${today}::text ELSE 'once' END) AS "repAwarded",
                count(p.completed_at)::int AS "timesCompleted"
         FROM quest_progress p JOIN quests q ON q.id = p.quest_id
         WHERE p.user_id = ${userId}::uuid AND p.quest_id IN (${ids})
         GROUP BY p.quest_id) x) AS progress,
      ${stepsJson(userId, today, ids)} AS steps,
      (SELECT COALESCE(jsonb_agg(x), '[]') FROM (
         SELECT id::text AS id, quest_id AS "questId", status::text AS status FROM quiz_sessions
         WHERE user_id = ${userId}::uuid AND day = ${today}::date AND quest_id IN (${ids})) x) AS sessions,
      EXISTS (SELECT 1 FROM quiz_sessions s JOIN quests q ON q.id = s.quest_id
              WHERE s.user_id = ${userId}::uuid AND s.status = 'active'
                AND s.question_shown_at + make_interval(secs => COALESCE(q.quiz_seconds, 20) + ${graceMs / 1000}::float8) < ${now}::timestamptz) AS "expiredSession"`;
}

type StateRow = Omit<QuestState, "progress"> & { progress: (Omit<ProgressRow, "completedAt"> & { completedAt: string | null })[] };
const toState = (r: StateRow): QuestState => ({
  ...r,
  progress: r.progress.map((p) => ({ ...p, completedAt: p.completedAt === null ? null : new Date(p.completedAt) })),
});

/** The state of the quests `questIds` for the user in one statement: what a list of quests needs besides the quests. */
export async function questStateOf(db: DbTx, userId: string, questIds: string[], now: Date, graceMs: number): Promise<QuestState> {
  const ids = Prisma.sql`SELECT unnest(${questIds}::text[])`;
  const [row] = await raw(db).$queryRaw<StateRow[]>`SELECT ${questStateColumns(userId, now, utcDay(now), graceMs, ids)}`;
  return toState(row!);
}

/** A quest row as jsonb_agg gives it back: dates as strings, with its list position. */
type JsonQuestRow = Omit<QuestRow, "availableUntil"> & { availableUntil: string | null; ord: unknown };
const fromJsonQuestRow = (q: JsonQuestRow): QuestRow => withoutOrd({ ...q, availableUntil: q.availableUntil === null ? null : new Date(q.availableUntil) });

/** What todaysQuestsColumns read, as a row gives it back: today's quests by id (in list order) and their state. */
export type TodaysQuestsRow = StateRow & { questIds: string[] };
export interface QuestsWithState {
  quests: QuestRow[];
  state: QuestState;
}

/** Whose quests of today to read, and when. */
export interface TodaysQuestsAt {
  userId: string;
  now: Date;
}

/**
 * The FROM of a statement over many callers (`items`): rows i(user_id, at, day, n), n their position in `items`, each
 * with eligibleQuests' ids in list order (eligible_ids.ids). todaysQuestsColumns reads those quests' state there. The
 * quests themselves are the same for everyone: the service keeps them per quest (questsWithState), as building them
 * as JSON in every statement cost ≈ 20% of it.
 */
export const todaysQuestsFrom = (items: TodaysQuestsAt[]) => Prisma.sql`
    unnest(${items.map((i) => i.userId)}::uuid[], ${items.map((i) => i.now.toISOString())}::timestamptz[],
           ${items.map((i) => utcDay(i.now))}::text[]) WITH ORDINALITY AS i(user_id, at, day, n)
    CROSS JOIN LATERAL (SELECT COALESCE(array_agg(e.id ORDER BY e.ord), '{}') AS ids
                        FROM (${eligibleSql(Prisma.sql`i.user_id`, Prisma.sql`i.at`)}) e) eligible_ids`;
export const todaysQuestsColumns = Prisma.sql`
    eligible_ids.ids AS "questIds",
    ${questStateColumns(Prisma.sql`i.user_id`, Prisma.sql`i.at`, Prisma.sql`i.day`, QUIZ_GRACE_MS, Prisma.sql`SELECT unnest(eligible_ids.ids)`)}`;

/** The quests `questIds` and their state, with the quests from `byId` (an id missing there is left out). */
export function questsWithStateOf({ questIds, ...state }: TodaysQuestsRow, byId: Map<string, QuestRow>): QuestsWithState {
  return { quests: questIds.flatMap((id) => byId.get(id) ?? []), state: toState(state) };
}

/** todaysQuestsColumns of many callers in one statement (today's quest list), in the order of `items`. */
export async function todaysQuestsRows(db: DbTx, items: TodaysQuestsAt[]): Promise<TodaysQuestsRow[]> {
  const rows = await raw(db).$queryRaw<(TodaysQuestsRow & { n: bigint | number })[]>`
    SELECT i.n, ${todaysQuestsColumns} FROM ${todaysQuestsFrom(items)}`;
  return inItemOrder(rows, items.length).map((r) => r!);
}

/** The quests `ids` as rows (any state: eligibility is the caller's statement's). */
export async function questRowsById(db: DbTx, ids: string[]): Promise<QuestRow[]> {
  const rows = await raw(db).$queryRaw<Int8<QuestRow, "repReward">[]>`
    SELECT ${QUEST_COLUMNS} FROM quests q WHERE q.id = ANY(${ids}::text[])`;
  return rows.map((r) => int8(r, ["repReward"]));
}

export interface SessionSummaryRow {
  id: string;
  questId: string;
  status: "active" | "completed" | "forfeited";
}

/** The teams the user follows or joined, by name. */
export function fanTeamsOf(db: DbTx, userId: string) {
  return raw(db).$queryRaw<{ id: string; slug: string; name: string; logo: string | null }[]>`
    SELECT t.id, t.slug, t.name, t.logo FROM teams t
    WHERE t.id IN (SELECT team_id FROM team_follows WHERE user_id = ${userId}::uuid UNION SELECT team_id FROM team_members WHERE user_id = ${userId}::uuid)
    ORDER BY t.name, t.id`;
}

/** Everything the step conditions read about a user, in one query. */
export interface ConditionFacts {
  follows: number;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  joined: string[];
  checkedIn: string[];
  checkedInToday: string[];
  rated: boolean;
}

/** ConditionFacts as columns, of the user `u` (users) on the UTC day `day`. */
const factsColumns = (day: Of<string>) => Prisma.sql`
    (SELECT count(*)::int FROM team_follows WHERE user_id = u.id) AS follows,
    u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl",
    ARRAY(SELECT team_id FROM team_members WHERE user_id = u.id) AS joined,
    ARRAY(SELECT DISTINCT team_id FROM arena_check_ins WHERE user_id = u.id) AS "checkedIn",
    ARRAY(SELECT team_id FROM arena_check_ins WHERE user_id = u.id AND day = ${day}::date) AS "checkedInToday",
    EXISTS (SELECT 1 FROM game_ratings WHERE user_id = u.id) AS rated`;

export async function conditionFactsOf(db: DbTx, userId: string, day: string): Promise<ConditionFacts | undefined> {
  const [row] = await raw(db).$queryRaw<ConditionFacts[]>`SELECT ${factsColumns(day)} FROM users u WHERE u.id = ${userId}::uuid`;
  return row;
}

/** Quests of a user whose conditioned steps to evaluate on a UTC day. */
export interface StepsToCheck {
  userId: string;
  questIds: string[];
  day: string;
}

/** What evaluating them reads: the user's ConditionFacts, the quests' steps, and which of them are completed (this period). */
export interface StepsChecked {
  facts: ConditionFacts;
  steps: StepRow[];
  completed: string[];
}

/** One statement for many (StepsToCheck each): undefined where the user does not exist. */
export async function stepsToCheckOf(db: DbTx, items: StepsToCheck[]): Promise<(StepsChecked | undefined)[]> {
  const col = <T>(f: (c: StepsToCheck) => T) => items.map(f);
  const ids = Prisma.sql`SELECT jsonb_array_elements_text(i.quest_ids)`;
  const rows = await raw(db).$queryRaw<(ConditionFacts & { n: bigint | number; steps: StepRow[]; completed: string[] })[]>`
    SELECT i.n, ${factsColumns(Prisma.sql`i.day`)}, ${stepsJson(Prisma.sql`u.id`, Prisma.sql`i.day`, ids)} AS steps,
           ARRAY(SELECT p.quest_id FROM quest_progress p JOIN quests q ON q.id = p.quest_id
                 WHERE p.user_id = u.id AND p.quest_id IN (${ids}) AND p.completed_at IS NOT NULL
                   AND p.period_key = CASE WHEN q.cadence = 'daily' THEN i.day ELSE 'once' END) AS completed
    FROM unnest(${col((c) => c.userId)}::uuid[], ${col((c) => JSON.stringify(c.questIds))}::jsonb[], ${col((c) => c.day)}::text[])
      WITH ORDINALITY AS i(user_id, quest_ids, day, n)
    JOIN users u ON u.id = i.user_id`;
  return inItemOrder(rows, items.length).map((r) => {
    if (!r) return undefined;
    const { steps, completed, ...facts } = r;
    return { facts, steps, completed };
  });
}

/** The game a check-in is for: the named one, else the team's game whose window is open (else the nearest). */
export interface CheckInGame {
  id: string;
  startsAt: Date;
  /** The check-in time is inside the game's check-in window. */
  inWindow: boolean;
  /** The venue's position, when known (both or neither). */
  latitude: number | null;
  longitude: number | null;
}

export interface CheckInContext {
  archived: boolean;
  /** The caller follows or joined the team. */
  fan: boolean;
  /**
   * With a gameId: that game, if it is this team's and not postponed or canceled. Without: the team's game (not
   * postponed or canceled) starting within a day of the check-in whose window holds it, else the nearest one.
   */
  game: CheckInGame | null;
  /** What the check-in touches (eligibleQuests with the checkInAt filter). */
  quests: QuestRow[];
}

/** A check-in to read the context of: who, at which team (and game), when (`day` is `at`'s UTC day). */
export interface CheckInAt {
  userId: string;
  teamId: string;
  gameId: string | null;
  at: Date;
  day: string;
}

/** The check-in window around a game's start, in minutes. */
export interface CheckInWindow {
  opensBefore: number;
  closesAfter: number;
}

/**
 * In one statement, what each check-in needs to know (undefined for an unknown team): the team, whether the caller
 * is its fan, the game it is for, and the quests the check-in completes or advances (steps not done once or on `day`).
 */
export async function checkInContextsOf(db: DbTx, items: CheckInAt[], window: CheckInWindow): Promise<(CheckInContext | undefined)[]> {
  const col = <T>(f: (c: CheckInAt) => T) => items.map(f);
  const only = { checkInAt: Prisma.sql`i.team_id`, periodKeys: Prisma.sql`ARRAY['once', i.day]` };
  const inWindow = Prisma.sql`i.at BETWEEN g.starts_at - make_interval(mins => ${window.opensBefore}::int) AND g.starts_at + make_interval(mins => ${window.closesAfter}::int)`;
  const rows = await raw(db).$queryRaw<
    (Omit<CheckInContext, "quests" | "game"> & { n: bigint | number; game: JsonCheckInGame | null; quests: JsonQuestRow[] })[]
  >`
    SELECT i.n, t.archived_at IS NOT NULL AS archived,
           EXISTS (SELECT 1 FROM team_follows f WHERE f.user_id = i.user_id AND f.team_id = t.id)
             OR EXISTS (SELECT 1 FROM team_members m WHERE m.user_id = i.user_id AND m.team_id = t.id) AS fan,
           (SELECT to_jsonb(x) FROM (
              SELECT g.id, g.starts_at AS "startsAt", ${inWindow} AS "inWindow", g.venue_latitude AS latitude, g.venue_longitude AS longitude
              FROM games g
              WHERE (g.home_team_id = t.id OR g.away_team_id = t.id) AND g.status NOT IN ('postponed', 'canceled')
                AND CASE WHEN i.game_id IS NULL THEN g.starts_at BETWEEN i.at - interval '1 day' AND i.at + interval '1 day' ELSE g.id = i.game_id END
              ORDER BY "inWindow" DESC, abs(extract(epoch FROM g.starts_at - i.at)), g.id
              LIMIT 1) x) AS game,
           (SELECT COALESCE(jsonb_agg(q ORDER BY q.ord), '[]') FROM (${eligibleSql(Prisma.sql`i.user_id`, Prisma.sql`i.at`, only)}) q) AS quests
    FROM unnest(${col((c) => c.userId)}::uuid[], ${col((c) => c.teamId)}::text[], ${col((c) => c.gameId)}::text[],
                ${col((c) => c.at.toISOString())}::timestamptz[], ${col((c) => c.day)}::text[]) WITH ORDINALITY AS i(user_id, team_id, game_id, at, day, n)
    JOIN teams t ON t.id = i.team_id`;
  return inItemOrder(rows, items.length).map(
    (r) => r && { ...r, game: r.game && { ...r.game, startsAt: new Date(r.game.startsAt) }, quests: r.quests.map(fromJsonQuestRow) },
  );
}

type JsonCheckInGame = Omit<CheckInGame, "startsAt"> & { startsAt: string };

/** The user's streak row (user_streaks), if any. */
export async function streakRowOf(db: DbTx, userId: string): Promise<{ current: number; longest: number; lastDay: Date } | undefined> {
  const [row] = await raw(db).$queryRaw<{ current: number; longest: number; lastDay: Date }[]>`
    SELECT current, longest, last_day AS "lastDay" FROM user_streaks WHERE user_id = ${userId}::uuid`;
  return row;
}

/** The user's completions that award Rep but have no ledger entry under their grant key (quest:<questId>:<periodKey>). */
export function completionsWithoutEntry(tx: DbTx, userId: string) {
  return tx.$queryRaw<
    {
      questId: string;
      periodKey: string;
      repAwarded: bigint;
      completedAt: Date;
      title: string;
      cadence: "daily" | "once";
      repSource: QuestRow["repSource"];
    }[]
  >`
    SELECT p.quest_id AS "questId", p.period_key AS "periodKey", p.rep_awarded AS "repAwarded", p.completed_at AS "completedAt",
           q.title, q.cadence::text AS cadence, q.rep_source::text AS "repSource"
    FROM quest_progress p JOIN quests q ON q.id = p.quest_id
    WHERE p.user_id = ${userId}::uuid AND p.completed_at IS NOT NULL AND p.rep_awarded > 0
      AND NOT EXISTS (SELECT 1 FROM rep_entries e WHERE e.user_id = p.user_id AND e.grant_key = 'quest:' || p.quest_id || ':' || p.period_key)`;
}
