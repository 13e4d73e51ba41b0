import type { Prisma } from "../generated/prisma/client";
import { slugify, type Feed } from "./feed";
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

/** pg_advisory_xact_lock key shared by every sync run (advisory locks are per database). */
export const SYNC_LOCK_KEY = 7_301_955_118;

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
  return source.replace(/^feed:/, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "feed";
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
  const existing = new Map((await c.tx.league.findMany({ where: { source: c.source } })).map((l) => [l.providerId, l]));
  const creates: Prisma.LeagueCreateManyInput[] = [];
  for (const l of c.feed.leagues) {
    const current = existing.get(l.id);
    const desired = {
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
    };
    if (!current) {
      creates.push({ id: ids.league(c, l.id), source: c.source, providerId: l.id, ...desired });
      continue;
    }
    existing.delete(l.id);
    const fields = changedFields(current, desired);
    if (!fields.length) {
      c.t.record("leagues", current.id, "unchanged");
      continue;
    }
    await c.tx.league.update({ where: { id: current.id }, data: desired });
    c.t.record("leagues", current.id, kindOf(fields, current.archivedAt !== null, desired.archivedAt !== null), fields);
  }
  await assertFree("League", creates.map((r) => r.id), (i) => c.tx.league.findMany({ where: { id: { in: i } }, select: { id: true } }));
  if (creates.length) await c.tx.league.createMany({ data: creates });
  for (const r of creates) c.t.record("leagues", r.id, "created");
  for (const dropped of existing.values()) {
    if (dropped.archivedAt) continue;
    await c.tx.league.update({ where: { id: dropped.id }, data: { archivedAt: c.now } });
    c.t.record("leagues", dropped.id, "archived", ["archivedAt"]);
  }
}

/** Row ids of every league (or team) this sync owns, feed or not. */
const ownedLeagueIds = async (c: Ctx) =>
  new Map((await c.tx.league.findMany({ where: { source: c.source }, select: { id: true, providerId: true, sport: true, season: true } })).map((l) => [l.providerId!, l]));
const ownedTeamIds = async (c: Ctx) =>
  new Map((await c.tx.team.findMany({ where: { source: c.source }, select: { id: true, providerId: true } })).map((t) => [t.providerId!, t.id]));

async function syncConferencesAndDivisions(c: Ctx) {
  const leagues = await ownedLeagueIds(c);
  const ownedLeagues = new Set([...leagues.values()].map((l) => l.id));

  const conferences = c.feed.leagues.flatMap((l) =>
    l.conferences.map((cf) => ({ id: ids.conference(c, cf.id), leagueId: leagues.get(l.id)!.id, name: cf.name })),
  );
  await upsertChildren(c, "conferences", conferences, c.tx.conference, ownedLeagues);

  const divisions = c.feed.leagues.flatMap((l) => [
    ...l.divisions.map((d) => ({ id: ids.division(c, d.id), leagueId: leagues.get(l.id)!.id, conferenceId: null as string | null, name: d.name })),
    ...l.conferences.flatMap((cf) =>
      cf.divisions.map((d) => ({ id: ids.division(c, d.id), leagueId: leagues.get(l.id)!.id, conferenceId: ids.conference(c, cf.id) as string | null, name: d.name })),
    ),
  ]);
  await upsertChildren(c, "divisions", divisions, c.tx.division, ownedLeagues);
}

interface ChildDelegate {
  findMany(args: { where: { id: { in: string[] } } }): Promise<Row[]>;
  createMany(args: { data: Row[] }): Promise<unknown>;
  update(args: { where: { id: string }; data: Row }): Promise<unknown>;
}

/** Conferences and divisions: found by their derived id; an existing row must belong to one of our leagues. */
async function upsertChildren(c: Ctx, entity: "conferences" | "divisions", rows: ({ id: string; leagueId: string } & Row)[], model: unknown, ownedLeagues: Set<string>) {
  const m = model as ChildDelegate;
  const existing = new Map((await m.findMany({ where: { id: { in: rows.map((r) => r.id) } } })).map((r) => [r.id as string, r]));
  const creates: Row[] = [];
  for (const { id, ...desired } of rows) {
    const current = existing.get(id);
    if (!current) {
      creates.push({ id, ...desired });
      continue;
    }
    if (!ownedLeagues.has(current.leagueId as string)) {
      throw new SyncConflictError(`${entity === "conferences" ? "Conference" : "Division"} id ${id} already exists and is not owned by this sync; nothing was changed.`);
    }
    const fields = changedFields(current, desired);
    if (!fields.length) {
      c.t.record(entity, id, "unchanged");
      continue;
    }
    await m.update({ where: { id }, data: desired });
    c.t.record(entity, id, "updated", fields);
  }
  if (creates.length) await m.createMany({ data: creates });
  for (const r of creates) c.t.record(entity, r.id as string, "created");
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

  const existing = new Map((await c.tx.team.findMany({ where: { source: c.source } })).map((t) => [t.providerId, t]));
  const creates: Prisma.TeamCreateManyInput[] = [];
  for (const t of c.feed.teams) {
    const league = leagues.get(t.leagueId)!;
    const current = existing.get(t.id);
    const desired = {
      slug: t.slug ?? slugify(t.name),
      name: t.name,
      shortName: t.shortName ?? null,
      abbreviation: t.abbreviation ?? null,
      city: t.city ?? null,
      sport: t.sport ?? feedLeagues.get(t.leagueId)!.sport,
      leagueId: league.id,
      conferenceId: t.conferenceId ? ids.conference(c, t.conferenceId) : null,
      divisionId: t.divisionId ? ids.division(c, t.divisionId) : null,
      logo: t.logo ?? null,
      primaryColor: t.primaryColor ?? null,
      secondaryColor: t.secondaryColor ?? null,
      foundedDate: t.foundedDate ? new Date(`${t.foundedDate}T00:00:00.000Z`) : null,
      rank: t.rank ?? null,
      archivedAt: t.status === "inactive" ? (current?.archivedAt ?? c.now) : null,
    };
    if (!current) {
      creates.push({ id: ids.team(c, t.id), source: c.source, providerId: t.id, ...desired });
      continue;
    }
    existing.delete(t.id);
    const fields = changedFields(current, desired);
    if (!fields.length) {
      c.t.record("teams", current.id, "unchanged");
      continue;
    }
    await c.tx.team.update({ where: { id: current.id }, data: desired });
    c.t.record("teams", current.id, kindOf(fields, current.archivedAt !== null, desired.archivedAt !== null), fields);
  }
  await assertFree("Team", creates.map((r) => r.id), (i) => c.tx.team.findMany({ where: { id: { in: i } }, select: { id: true } }));
  if (creates.length) await c.tx.team.createMany({ data: creates });
  for (const r of creates) c.t.record("teams", r.id, "created");
  for (const dropped of existing.values()) {
    if (dropped.archivedAt) continue;
    await c.tx.team.update({ where: { id: dropped.id }, data: { archivedAt: c.now } });
    c.t.record("teams", dropped.id, "archived", ["archivedAt"]);
  }
}

async function syncPlayers(c: Ctx) {
  const teams = await ownedTeamIds(c);
  const ownedTeams = new Set(teams.values());
  const rows = c.feed.teams.flatMap((t) =>
    t.players.map((p) => ({
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
    })),
  );
  const feedIds = new Set(rows.map((r) => r.id));
  const existing = new Map(
    (await c.tx.player.findMany({ where: { OR: [{ teamId: { in: [...ownedTeams] } }, { id: { in: [...feedIds] } }] } })).map((p) => [p.id, p]),
  );
  const creates: Prisma.PlayerCreateManyInput[] = [];
  for (const { id, ...desired } of rows) {
    const current = existing.get(id);
    if (!current) {
      creates.push({ id, ...desired });
      continue;
    }
    if (!ownedTeams.has(current.teamId)) throw new SyncConflictError(`Player id ${id} already exists and is not owned by this sync; nothing was changed.`);
    const fields = changedFields(current, desired);
    if (!fields.length) {
      c.t.record("players", id, "unchanged");
      continue;
    }
    await c.tx.player.update({ where: { id }, data: desired });
    c.t.record("players", id, kindOf(fields, !current.active, !desired.active), fields);
  }
  if (creates.length) await c.tx.player.createMany({ data: creates });
  for (const r of creates) c.t.record("players", r.id, "created");
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
  const rows = c.feed.games.map((g) => ({
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
  }));
  const existing = new Map((await c.tx.game.findMany({ where: { id: { in: rows.map((r) => r.id) } } })).map((g) => [g.id, g]));
  const creates: Prisma.GameCreateManyInput[] = [];
  for (const { id, ...desired } of rows) {
    const current = existing.get(id);
    if (!current) {
      creates.push({ id, ...desired });
      continue;
    }
    if (!ownedLeagues.has(current.leagueId)) throw new SyncConflictError(`Game id ${id} already exists and is not owned by this sync; nothing was changed.`);
    const fields = changedFields(current, desired);
    if (!fields.length) {
      c.t.record("games", id, "unchanged");
      continue;
    }
    await c.tx.game.update({ where: { id }, data: desired });
    c.t.record("games", id, "updated", fields);
  }
  if (creates.length) await c.tx.game.createMany({ data: creates });
  for (const r of creates) c.t.record("games", r.id, "created");
}
