// The audit log: every staff change is recorded with who made it, the role used, before and after, and the request,
// in the transaction of the change (recordAudit), so an entry exists exactly when the change does. Append-only (a
// trigger). The console's search of it comes with issue 35.

export { recordAudit } from "./queries";
export type { AuditInput, StaffActor } from "./schemas";
