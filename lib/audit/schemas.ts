// The audit log's inputs: who acts (a staff member, with the role the action needed) and what one entry records.

/** The staff member behind a change: the identity-provider id, the role used, and the API request when there is one. */
export interface StaffActor {
  id: string;
  role: "admin";
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
