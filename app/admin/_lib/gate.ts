import { constants } from "@clerk/backend/internal";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import type { StaffActor } from "@/lib/core/audit/service";
import { mayOpen, type ConsoleArea } from "@/lib/auth/roles";
import { checkStaff, signInUrl, type ConsoleSession, type Staff } from "@/lib/auth/staff";
import { SESSION_COOKIE } from "@/lib/auth/cookies";

// The console's access control, not left to middleware.ts: every page and every server action calls one of these
// before reading or changing anything. The layout is not enough on its own: Next renders a page's segment
// independently of its layout's output (and a layout is not re-run on client navigations), and server actions
// can be invoked directly with a POST. Each names the area it belongs to (lib/auth/roles.ts; omitted: `admin`):
// staff whose role does not open it get the 403 page, and an action refused so changes nothing.

/**
 * The session token to check: the one Clerk's middleware passed on for this request (when it had to refresh an
 * expired `__session` cookie, the new token, which the request's own cookie does not hold yet), else the cookie.
 * checkStaff verifies either in full, so the header is trusted no more than the cookie.
 */
export async function sessionToken(): Promise<string | undefined> {
  return (await headers()).get(constants.Headers.AuthToken) || (await cookies()).get(SESSION_COOKIE)?.value;
}

/** This request's console session, verified once per request (React cache). */
export const consoleSession = cache(async (): Promise<ConsoleSession> => checkStaff(await sessionToken()));

function bounce(session: ConsoleSession, returnPath: string): never {
  if (session.kind === "anonymous") redirect(signInUrl(returnPath));
  // Signed in without the staff role, or with a role that does not open the area: the 403 page (a route handler,
  // so the status is a real 403).
  redirect("/admin/forbidden");
}

/** For pages: the staff member, or a redirect to sign-in (anonymous) or to the 403 page (not staff, or not this area). */
export async function requireStaff(returnPath: string, area: ConsoleArea = "admin"): Promise<Staff> {
  const session = await consoleSession();
  if (session.kind !== "staff" || !mayOpen(session.role, area)) bounce(session, returnPath);
  return session;
}

/** For server actions: the same check, repeated on every call, before any effect. */
export async function requireStaffAction(area: ConsoleArea = "admin"): Promise<Staff> {
  const session = await checkStaff(await sessionToken());
  if (session.kind !== "staff" || !mayOpen(session.role, area)) bounce(session, "/admin");
  return session;
}

/** Who a console action's audit entry names: the staff member and the role their session carries (no request id). */
export const actorOf = (staff: Staff): StaffActor => ({ id: staff.externalId, role: staff.role });
