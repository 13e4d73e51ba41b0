import { z } from "zod";

// Inputs of the staff console's pages and server actions (search forms, ids in form fields).

export const teamSearchSchema = z.object({
  q: z.string().trim().max(100).optional().default(""),
  league: z.string().trim().max(100).optional().default(""),
  archived: z.enum(["1"]).optional().catch(undefined),
});
export type TeamSearch = z.infer<typeof teamSearchSchema>;

export const teamIdSchema = z.string().trim().min(1).max(200);

export const userQuerySchema = z.string().trim().min(1).max(200);
export const externalIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_\-:.]{1,200}$/, "an identity-provider user id");
