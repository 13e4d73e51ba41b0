import { z } from "zod";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { SUSPENSION_HOURS_MAX, SUSPENSION_REASON_MAX } from "@/lib/features/moderation/schemas";

// What the moderation page and its actions share: the form schemas, the result codes and their messages.

const uuid = z
  .string()
  .trim()
  .regex(UUID_PATTERN)
  .transform((s) => s.toLowerCase());

export const targetForm = z.object({ kind: z.enum(["post", "comment"]), id: uuid });

export const suspendForm = z.object({
  userId: uuid,
  hours: z
    .string()
    .trim()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(SUSPENSION_HOURS_MAX)),
  reason: z.string().trim().min(1).max(SUSPENSION_REASON_MAX),
});

export const liftForm = z.object({ suspensionId: uuid, userId: uuid });

export const MODERATION_ERRORS: Record<string, string> = {
  kind: "That target is not a post or a comment.",
  id: "That target id is not valid.",
  missing: "No such post, comment or user.",
  userId: "Enter the user's id (a UUID).",
  hours: `Hours: a whole number from 1 to ${SUSPENSION_HOURS_MAX}.`,
  reason: `Enter a reason (1-${SUSPENSION_REASON_MAX} characters).`,
  suspensionId: "No such suspension.",
};

export const MODERATION_DONE: Record<string, string> = {
  hidden: "Hidden: only staff can see it now, and its open reports are resolved.",
  restored: "Restored: it shows again to those who may see it.",
  dismissed: "Reports dismissed.",
  suspended: "User suspended from posting.",
  lifted: "Suspension lifted.",
};
