// The audit log: every staff change is recorded with who made it, the role used, before and after, and the request,
// in the transaction of the change (recordAudit), so an entry exists exactly when the change does. Append-only (a
// trigger). Searched by the console's /admin/audit (searchAudit) and a fan's page (auditForTarget).

import type { AuthUser } from "../../auth/users";
import type { StaffActor } from "./schemas";

export { auditForTarget, recordAudit, searchAudit } from "./queries";
export { auditFilterOf, auditSearchSchema } from "./schemas";
export type { AuditInput, AuditFilter, AuditRow, AuditSearch, StaffActor } from "./schemas";

/** The actor of a staff API call: the caller's identity-provider id, the role their session carries, the request's id. */
export function apiActor(user: Pick<AuthUser, "externalId" | "staffRole">, requestId: string): StaffActor {
  // The pipeline lets only staff sessions reach an `admin` route.
  if (!user.staffRole) throw new Error(`apiActor: ${user.externalId} has no staff role`);
  return { id: user.externalId, role: user.staffRole, requestId };
}
