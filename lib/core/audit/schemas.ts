import { z } from "zod";
import type { StaffRole } from "../../auth/roles";

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

/** The search form's fields (all optional strings; bad ones are dropped with a notice, never a 500). */
export const auditSearchSchema = z.object({
  actor: z.string().trim().min(1).max(200).optional(),
  action: z
    .string()
    .trim()
    .regex(/^[a-z0-9_.-]{1,100}$/i)
    .optional(),
  targetType: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,50}$/i)
    .optional(),
  targetId: z.string().trim().min(1).max(200).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  cursor: z.string().max(1024).optional(),
});
export type AuditSearch = z.infer<typeof auditSearchSchema>;

/** The filter a valid search asks for: dates are whole UTC days, `to` inclusive. */
export function auditFilterOf(s: AuditSearch): AuditFilter {
  return {
    actorId: s.actor,
    actionPrefix: s.action,
    targetType: s.targetType,
    targetId: s.targetType ? s.targetId : undefined,
    from: s.from ? new Date(`${s.from}T00:00:00Z`) : undefined,
    to: s.to ? new Date(new Date(`${s.to}T00:00:00Z`).getTime() + 86_400_000) : undefined,
  };
}
