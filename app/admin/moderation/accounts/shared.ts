import { z } from "zod";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { SANCTION_HOURS_MAX, SANCTION_KINDS, SUSPENSION_REASON_MAX } from "@/lib/features/moderation/schemas";

// What the reports, sanctions and appeals page and its actions share: form schemas, result codes and messages.

const uuid = z
  .string()
  .trim()
  .regex(UUID_PATTERN)
  .transform((s) => s.toLowerCase());

export const sanctionForm = z.object({
  userId: uuid,
  kind: z.enum(SANCTION_KINDS),
  hours: z
    .string()
    .trim()
    .regex(/^\d{1,6}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(SANCTION_HOURS_MAX)),
  reason: z.string().trim().min(1).max(SUSPENSION_REASON_MAX),
});

export const actionForm = z.object({ actionId: uuid, userId: uuid.optional() });
export const appealForm = z.object({ appealId: uuid, decision: z.enum(["grant", "deny"]) });
export const reviewForm = z.object({ actionId: uuid, decision: z.enum(["uphold", "revert"]) });
export const reportForm = z.object({ kind: z.enum(["user", "listing", "binder"]), id: uuid, resolution: z.enum(["actioned", "dismissed"]) });

export const ACCOUNT_ERRORS: Record<string, string> = {
  userId: "Enter the user's id (a UUID).",
  kind: "Pick a sanction.",
  hours: `Hours: a whole number from 1 to ${SANCTION_HOURS_MAX}.`,
  reason: `Enter a reason (1-${SUSPENSION_REASON_MAX} characters).`,
  missing: "No such user, action or appeal.",
  decided: "That appeal was already decided.",
  invalid: "That request was not valid.",
};

export const ACCOUNT_DONE: Record<string, string> = {
  imposed: "Sanction imposed.",
  lifted: "Action lifted: what it restricted or hid is restored.",
  granted: "Appeal granted: the action is lifted and what it hid is restored.",
  denied: "Appeal denied: the action stands.",
  upheld: "Team staff action upheld.",
  reverted: "Team staff action reverted: the comment is back.",
  actioned: "Reports resolved as actioned.",
  dismissed: "Reports dismissed.",
};

export const KIND_LABEL: Record<string, string> = {
  posting_suspension: "Posting suspension",
  trading_restriction: "Trading restriction",
  full_suspension: "Full suspension",
  content_hidden: "Hidden content",
};
