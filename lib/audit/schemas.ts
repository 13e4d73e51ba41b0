import type { StaffRole } from "../auth/roles";

// The audit log's inputs: who acts (a staff member, with the role the action needed) and what one entry records.

/** The staff member behind a change: the identity-provider id, the role used, and the API request when there is one. */
export interface StaffActor {
  id: string;
  role: StaffRole;
  requestId?: string;
}

export interface AuditInput {
  action: string;
  targetType: string;
  targetId: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  note?: string;
}

/** What /admin/audit searches by; every field optional, combined with AND. Dates match the entry's id (UUIDv7 time). */
export interface AuditFilter {
  actorId?: string;
  /** The start of the action ("drop." finds drop.create; "drop.create" only it). */
  actionPrefix?: string;
  targetType?: string;
  /** Only with targetType. */
  targetId?: string;
  /** Entries from this instant on. */
  from?: Date;
  /** Entries before this instant. */
  to?: Date;
}

/** One entry as the console shows it. */
export interface AuditRow {
  id: string;
  createdAt: Date;
  actorId: string;
  actorRole: string;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  note: string | null;
  requestId: string | null;
}
