import type { Prisma } from "../../generated/prisma/client";
import { slugify, type Feed } from "./payload";
import { MAX_CHANGES, SYNC_ENTITIES, type SyncChange, type SyncEntity, type SyncScope, type SyncSummary } from "./types";

// Applies a validated feed inside the caller's transaction (which holds the sync lock).
//
// Ownership: a sync owns the leagues and teams whose `source` is its provider's name, and, through them, the
// conferences and divisions of its leagues, the players of its teams and the games of its leagues. It never
// modifies, archives or re-parents anything else; a row id it would create that already exists under another
// owner fails the run. Row ids are derived from the provider id: lg_<ns>_<id>, cf_…, dv_…, tm_…, pl_…, gm_…,
// where <ns> is the source without "feed:" (e.g. tm_fixture_lax-bos); leagues and teams are found by
// (source, providerId). Only rows whose synced fields differ are written, so an identical re-run writes nothing.
//
// Dropped from the feed: leagues and teams are archived (archivedAt), players set inactive; conferences, divisions
// and games are left as they are (the schema has no archive flag for them; games are never deleted). A row that
// comes back is restored.

type Tx = Prisma.TransactionClient;
type Row = Record<string, unknown>;

/** Thrown inside the transaction to roll back a dry run while carrying its summary out. */
export class DryRunRollback extends Error {
  constructor(readonly summary: SyncSummary) {
    super("dry run");
  }
}

export class SyncConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SyncConflictError";
  }
}

export function namespaceOf(source: string): string {
  return (
    source
      .replace(/^feed:/, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "feed"
  );
}

function emptySummary(): SyncSummary {
  const s = { changes: [] as SyncChange[] } as SyncSummary;
  for (const e of SYNC_ENTITIES) s[e] = { created: 0, updated: 0, archived: 0, unchanged: 0 };
  return s;
}

const same = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date ? a instanceof Date && b instanceof Date && a.getTime() === b.getTime() : a === b;

const changedFields = (current: Row, desired: Row) => Object.keys(desired).filter((k) => !same(current[k], desired[k]));

class Tracker {
  readonly summary = emptySummary();
  private total = 0;

  record(entity: SyncEntity, id: string, change: SyncChange["change"] | "unchanged", fields?: string[]) {
    const counts = this.summary[entity];
    if (change === "unchanged") {
      counts.unchanged++;
      return;
    }
    if (change === "created") counts.created++;
    else if (change === "archived") counts.archived++;
    else counts.updated++; // updated and restored
    this.total++;
    if (this.summary.changes.length < MAX_CHANGES) this.summary.changes.push({ entity, id, change, ...(fields?.length ? { fields } : {}) });
    else this.summary.changesTruncated = true;
  }
}

/** Classifies an update by what it does to the archive flag (archivedAt for leagues/teams, active for players). */
function kindOf(fields: string[], wasArchived: boolean, willBeArchived: boolean): SyncChange["change"] {
  if (wasArchived && !willBeArchived) return "restored";
  if (!wasArchived && willBeArchived) return "archived";
  return "updated";
}

interface Ctx {
  tx: Tx;
  feed: Feed;
  source: string;
  ns: string;
  now: Date;
  t: Tracker;
}

export async function applyFeed(tx: Tx, feed: Feed, opts: { source: string; scope: SyncScope; now: Date }): Promise<SyncSummary> {
  const ctx: Ctx = { tx, feed, source: opts.source, ns: namespaceOf(opts.source), now: opts.now, t: new Tracker() };
  if (opts.scope === "leagues" || opts.scope === "all") {
    await syncLeagues(ctx);
    await syncConferencesAndDivisions(ctx);
  }
  if (opts.scope === "teams" || opts.scope === "all") {
    await syncTeams(ctx);
    await syncPlayers(ctx);
    await syncGames(ctx);
  }
  return ctx.t.summary;
}

const ids = {
  league: (c: Ctx, pid: string) => `lg_${c.ns}_${pid}`,
  conference: (c: Ctx, pid: string) => `cf_${c.ns}_${pid}`,
  division: (c: Ctx, pid: string) => `dv_${c.ns}_${pid}`,
  team: (c: Ctx, pid: string) => `tm_${c.ns}_${pid}`,
  player: (c: Ctx, pid: string) => `pl_${c.ns}_${pid}`,
  game: (c: Ctx, pid: string) => `gm_${c.ns}_${pid}`,
};

/** Fails the run when an id it would create already belongs to a row it does not own. */
async function assertFree(what: string, newIds: string[], taken: (ids: string[]) => Promise<{ id: string }[]>) {
  if (!newIds.length) return;
  const rows = await taken(newIds);
  if (rows.length) throw new SyncConflictError(`${what} id ${rows[0]!.id} already exists and is not owned by this sync; nothing was changed.`);
}

async function syncLeagues(c: Ctx) {
  await syncOwned(
    c,
    "leagues",
    c.tx.league,
    c.feed.leagues,
    (l, current) =>
      ({
        slug: l.slug,
        name: l.name,
        shortName: l.shortName ?? null,
        sport: l.sport,
        season: l.season ?? null,
        logo: l.logo ?? null,
        primaryColor: l.primaryColor ?? null,
        secondaryColor: l.secondaryColor ?? null,
        displayOrder: l.displayOrder,
        archivedAt: l.status === "inactive" ? (current?.archivedAt ?? c.now) : null,
      }) satisfies Omit<Prisma.LeagueCreateManyInput, "id" | "source" | "providerId">,
  );
}

type OwnedRow = { id: string; providerId: string | null; archivedAt: Date | null } & Row;

interface OwnedDelegate {
  findMany(args: { where: { source: string } }): Promise<OwnedRow[]>;
  findMany(args: { where: { id: { in: string[] } }; select: { id: true } }): Promise<{ id: string }[]>;
  createMany(args: { data: Row[] }): Promise<unknown>;
  update(args: { where: { id: string }; data: Row }): Promise<unknown>;
}

/**
 * Leagues and teams: found by (source, providerId); missing ones are created with a derived id (which must be free),
 * only rows whose synced fields differ are written, and the ones the feed no longer lists are archived.
 */
async function syncOwned<F extends { id: string }>(
  c: Ctx,
  entity: "leagues" | "teams",
  model: unknown,
  feedRows: F[],
  desiredOf: (row: F, current: OwnedRow | undefined) => Row & { archivedAt: Date | null },
) {
  const m = model as OwnedDelegate;
  const existing = new Map((await m.findMany({ where: { source: c.source } })).map((r) => [r.providerId, r]));
  const creates: (Row & { id: string })[] = [];
  for (const f of feedRows) {
    const current = existing.get(f.id);
    const desired = desiredOf(f, current);
    if (!current) {
      creates.push({ id: (entity === "leagues" ? ids.league : ids.team)(c, f.id), source: c.source, providerId: f.id, ...desired });
      continue;
    }
    existing.delete(f.id);
    const fields = changedFields(current, desired);
    if (!fields.length) {
      c.t.record(entity, current.id, "unchanged");
      continue;
    }
    await m.update({ where: { id: current.id }, data: desired });
    c.t.record(entity, current.id, kindOf(fields, current.archivedAt !== null, desired.archivedAt !== null), fields);
  }
  await assertFree(
    entity === "leagues" ? "League" : "Team",
    creates.map((r) => r.id),
    (i) => m.findMany({ where: { id: { in: i } }, select: { id: true } }),
  );
  if (creates.length) await m.createMany({ data: creates });
  for (const r of creates) c.t.record(entity, r.id, "created");
  for (const dropped of existing.values()) {
    if (dropped.archivedAt) continue;
    await m.update({ where: { id: dropped.id }, data: { archivedAt: c.now } });
    c.t.record(entity, dropped.id, "archived", ["archivedAt"]);
  }
}

/** Row ids of every league (or team) this sync owns, feed or not. */
const ownedLeagueIds = async (c: Ctx) =>
  new Map(
    (await c.tx.league.findMany({ where: { source: c.source }, select: { id: true, providerId: true, sport: true, season: true } })).map((l) => [
      l.providerId!,
      l,
    ]),
  );
const ownedTeamIds = async (c: Ctx) =>
  new Map((await c.tx.team.findMany({ where: { source: c.source }, select: { id: true, providerId: true } })).map((t) => [t.providerId!, t.id]));

async function syncConferencesAndDivisions(c: Ctx) {
  const leagues = await ownedLeagueIds(c);
  const ownedLeagues = new Set([...leagues.values()].map((l) => l.id));

  const conferences = c.feed.leagues.flatMap((l) =>
    l.conferences.map((cf) => ({ id: ids.conference(c, cf.id), leagueId: leagues.get(l.id)!.id, name: cf.name })),
  );
  await upsertChildren(c, "conferences", conferences, c.tx.conference, (r: Prisma.ConferenceModel) => ownedLeagues.has(r.leagueId));

  const divisions = c.feed.leagues.flatMap((l) => [
    ...l.divisions.map((d) => ({ id: ids.division(c, d.id), leagueId: leagues.get(l.id)!.id, conferenceId: null as string | null, name: d.name })),
    ...l.conferences.flatMap((cf) =>
      cf.divisions.map((d) => ({
        id: ids.division(c, d.id),
        leagueId: leagues.get(l.id)!.id,
        conferenceId: ids.conference(c, cf.id) as string | null,
        name: d.name,
      })),
    ),
  ]);
  await upsertChildren(c, "divisions", divisions, c.tx.division, (r: Prisma.DivisionModel) => ownedLeagues.has(r.leagueId));
}

interface ChildDelegate<C> {
  findMany(args: { where: Row }): Promise<C[]>;
  createMany(args: { data: Row[] }): Promise<unknown>;
  update(args: { where: { id: string }; data: Row }): Promise<unknown>;
}

const CHILD_LABELS = { conferences: "Conference", divisions: "Division", players: "Player", games: "Game" } as const;

/**
 * Conferences, divisions, players and games: found by their derived id (or by `where`); an existing row must be ours
 * (`owned`: through one of our leagues or teams), and is written only where its synced fields differ, as `kind` says
 * (default "updated"). Answers the rows it found.
 */
async function upsertChildren<R extends { id: string } & Row, C extends { id: string } & Row>(
  c: Ctx,
  entity: keyof typeof CHILD_LABELS,
  rows: R[],
  model: unknown,
  owned: (current: C) => boolean,
  opts: { where?: Row; kind?: (fields: string[], current: C, desired: Row) => SyncChange["change"] } = {},
): Promise<Map<string, C>> {
  const m = model as ChildDelegate<C>;
  const existing = new Map((await m.findMany({ where: opts.where ?? { id: { in: rows.map((r) => r.id) } } })).map((r) => [r.id, r]));
  const creates: R[] = [];
  for (const row of rows) {
    const { id, ...desired } = row;
    const current = existing.get(id);
    if (!current) {
      creates.push(row);
      continue;
    }
    if (!owned(current)) throw new SyncConflictError(`${CHILD_LABELS[entity]} id ${id} already exists and is not owned by this sync; nothing was changed.`);
    const fields = changedFields(current, desired);
    if (!fields.length) {
      c.t.record(entity, id, "unchanged");
      continue;
    }
    await m.update({ where: { id }, data: desired });
    c.t.record(entity, id, opts.kind?.(fields, current, desired) ?? "updated", fields);
  }
  if (creates.length) await m.createMany({ data: creates });
  for (const r of creates) c.t.record(entity, r.id, "created");
  return existing;
}

async function syncTeams(c: Ctx) {
  const leagues = await ownedLeagueIds(c);
  const feedLeagues = new Map(c.feed.leagues.map((l) => [l.id, l]));
  const needed = [...new Set(c.feed.teams.map((t) => t.leagueId))].filter((pid) => !leagues.has(pid));
  if (needed.length) throw new SyncConflictError(`League ${needed[0]} is not synced yet: run a leagues (or full) sync first; nothing was changed.`);

  // Conferences and divisions the teams point at must exist (created by a leagues sync) and be ours.
  const confIds = [...new Set(c.feed.teams.flatMap((t) => (t.conferenceId ? [ids.conference(c, t.conferenceId)] : [])))];
  const divIds = [...new Set(c.feed.teams.flatMap((t) => (t.divisionId ? [ids.division(c, t.divisionId)] : [])))];
  const ownedLeagues = new Set([...leagues.values()].map((l) => l.id));
  const found = [
    ...(await c.tx.conference.findMany({ where: { id: { in: confIds } }, select: { id: true, leagueId: true } })),
    ...(await c.tx.division.findMany({ where: { id: { in: divIds } }, select: { id: true, leagueId: true } })),
  ].filter((r) => ownedLeagues.has(r.leagueId));
  const missing = [...confIds, ...divIds].filter((id) => !found.some((r) => r.id === id));
  if (missing.length) throw new SyncConflictError(`${missing[0]} is not synced yet: run a leagues (or full) sync first; nothing was changed.`);

  await syncOwned(
    c,
    "teams",
    c.tx.team,
    c.feed.teams,
    (t, current) =>
      ({
        slug: t.slug ?? slugify(t.name),
        name: t.name,
        shortName: t.shortName ?? null,
        abbreviation: t.abbreviation ?? null,
        city: t.city ?? null,
        sport: t.sport ?? feedLeagues.get(t.leagueId)!.sport,
        leagueId: leagues.get(t.leagueId)!.id,
        conferenceId: t.conferenceId ? ids.conference(c, t.conferenceId) : null,
        divisionId: t.divisionId ? ids.division(c, t.divisionId) : null,
        logo: t.logo ?? null,
        primaryColor: t.primaryColor ?? null,
        secondaryColor: t.secondaryColor ?? null,
        foundedDate: t.foundedDate ? new Date(`${t.foundedDate}T00:00:00.000Z`) : null,
        rank: t.rank ?? null,
        archivedAt: t.status === "inactive" ? (current?.archivedAt ?? c.now) : null,
      }) satisfies Omit<Prisma.TeamCreateManyInput, "id" | "source" | "providerId">,
  );
}

async function syncPlayers(c: Ctx) {
  const teams = await ownedTeamIds(c);
  const ownedTeams = new Set(teams.values());
  const rows = c.feed.teams.flatMap((t) =>
    t.players.map(
      (p) =>
        ({
          id: ids.player(c, p.id),
          teamId: teams.get(t.id)!,
          name: p.name,
          jersey: p.jersey ?? null,
          position: p.position ?? null,
          role: p.role ?? null,
          duty: p.duty ?? null,
          photo: p.photo ?? null,
          availability: p.availability,
          active: p.active,
        }) satisfies Prisma.PlayerCreateManyInput,
    ),
  );
  const feedIds = new Set(rows.map((r) => r.id));
  const existing = await upsertChildren(c, "players", rows, c.tx.player, (p: Prisma.PlayerModel) => ownedTeams.has(p.teamId), {
    where: { OR: [{ teamId: { in: [...ownedTeams] } }, { id: { in: [...feedIds] } }] },
    kind: (fields, current, desired) => kindOf(fields, !current.active, !desired.active),
  });
  // Players of our teams the feed no longer lists: inactive, never deleted.
  for (const p of existing.values()) {
    if (feedIds.has(p.id) || !p.active || !ownedTeams.has(p.teamId)) continue;
    await c.tx.player.update({ where: { id: p.id }, data: { active: false } });
    c.t.record("players", p.id, "archived", ["active"]);
  }
}

async function syncGames(c: Ctx) {
  const leagues = await ownedLeagueIds(c);
  const teams = await ownedTeamIds(c);
  const ownedLeagues = new Set([...leagues.values()].map((l) => l.id));
  const feedLeagues = new Map(c.feed.leagues.map((l) => [l.id, l]));
  const rows = c.feed.games.map(
    (g) =>
      ({
        id: ids.game(c, g.id),
        leagueId: leagues.get(g.leagueId)!.id,
        season: g.season ?? feedLeagues.get(g.leagueId)!.season ?? null,
        homeTeamId: teams.get(g.homeTeamId)!,
        awayTeamId: teams.get(g.awayTeamId)!,
        startsAt: new Date(g.startsAt),
        status: g.status,
        homeScore: g.homeScore ?? null,
        awayScore: g.awayScore ?? null,
        overtime: g.overtime,
        venue: g.venue ?? null,
        venueLatitude: g.venueLocation?.latitude ?? null,
        venueLongitude: g.venueLocation?.longitude ?? null,
      }) satisfies Prisma.GameCreateManyInput,
  );
  await upsertChildren(c, "games", rows, c.tx.game, (g: Prisma.GameModel) => ownedLeagues.has(g.leagueId));
}
