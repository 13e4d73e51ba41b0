import type { Db } from "../db/client";
import { log } from "../http/log";
import { identityProvider } from "../identity/provider";
import { forgetStandings } from "../leagues/service";
import { forgetTeamDetails } from "../teams/service";
import { externalIdSchema, teamIdSchema, userQuerySchema } from "./schemas";

// The staff console's actions: archive and restore teams, look users up, grant and revoke the staff role. Roles
// live in the identity provider (Clerk public metadata role = "admin", copied into the session JWT's claims), so a
// grant or revoke applies when the user's session token is next refreshed, not at once.

/**
 * Archives a live team (hidden from every public read) or restores an archived one. Conditional update, so a
 * repeated click changes nothing; the process's cached team details are dropped either way.
 * Returns the team's name, or null when there is no such team in the expected state.
 */
export async function setTeamArchived(db: Db, teamId: string, archived: boolean): Promise<{ changed: boolean; name: string } | null> {
  const id = teamIdSchema.parse(teamId);
  const { count } = await db.team.updateMany({
    where: { id, archivedAt: archived ? null : { not: null } },
    data: { archivedAt: archived ? new Date() : null },
  });
  forgetTeamDetails();
  forgetStandings();
  const team = await db.team.findUnique({ where: { id }, select: { name: true } });
  return team ? { changed: count === 1, name: team.name } : null;
}

export type Role = "admin" | "fan" | "unknown";

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
    if (!user || user.isAdmin === null) return "unknown";
    return user.isAdmin ? "admin" : "fan";
  } catch (error) {
    log("warn", { msg: "identity provider role lookup failed", error: error instanceof Error ? error.message : String(error) });
    return "unknown";
  }
}

/** Users whose external id, handle (case-insensitive) or email (case-insensitive) is exactly the query. */
export async function lookupUsers(db: Db, rawQuery: string): Promise<ConsoleUser[]> {
  const q = userQuerySchema.parse(rawQuery.replace(/^@/, ""));
  const rows = await db.user.findMany({
    where: { OR: [{ externalId: q }, { handleKey: q.toLowerCase() }, { email: { equals: q, mode: "insensitive" } }] },
    orderBy: { createdAt: "asc" },
    take: 20,
    select: { id: true, externalId: true, handle: true, displayName: true, email: true, createdAt: true },
  });
  const found: Omit<ConsoleUser, "role">[] = rows;
  // A user who never called the API has no row yet; the identity provider may still know the id.
  if (found.length === 0 && externalIdSchema.safeParse(q).success) {
    const remote = await identityProvider()
      .getUser(q)
      .catch(() => null);
    if (remote) found.push({ externalId: remote.externalId, id: null, handle: remote.username, displayName: null, email: remote.email, createdAt: null });
  }
  return Promise.all(found.map(async (u) => ({ ...u, role: await providerRole(u.externalId) })));
}

/** Grants or revokes the staff role in the identity provider. Staff cannot revoke their own role (lock-out). */
export async function setStaffRole(actor: string, rawTarget: string, admin: boolean): Promise<void> {
  const target = externalIdSchema.parse(rawTarget);
  if (!admin && target === actor) throw new SelfRevokeError();
  await identityProvider().setAdmin(target, admin);
  log("info", { msg: "staff role changed", actor, target, admin });
}

export class SelfRevokeError extends Error {
  constructor() {
    super("You cannot revoke your own staff role.");
    this.name = "SelfRevokeError";
  }
}
