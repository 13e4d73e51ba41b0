import { z } from "zod";
import { cursorQuery, idString, intQuery, isoDateTime } from "../../kernel/schemas";
import { SYNC_RUNS_DEFAULT_LIMIT, SYNC_RUNS_MAX_LIMIT } from "./queries";

// Route schemas of the sync triggers and the run history (validation, types and the internal OpenAPI document).

const counts = z
  .object({ created: z.number().int(), updated: z.number().int(), archived: z.number().int(), unchanged: z.number().int() })
  .meta({ id: "SyncCounts" });

export const syncSummarySchema = z
  .object({
    leagues: counts,
    conferences: counts,
    divisions: counts,
    teams: counts,
    players: counts,
    games: counts,
    changes: z
      .array(
        z.object({
          entity: z.enum(["leagues", "conferences", "divisions", "teams", "players", "games"]),
          id: z.string(),
          change: z.enum(["created", "updated", "archived", "restored"]),
          fields: z.array(z.string()).optional(),
        }),
      )
      .meta({ description: "What the run changed (row ids in this database), first 200 entries." }),
    changesTruncated: z.boolean().optional(),
    dryRun: z.boolean().optional().meta({ description: "True when the changes were computed and rolled back." }),
  })
  .meta({ id: "SyncSummary" });

export const syncRunSchema = z
  .object({
    id: z.string(),
    scope: z.enum(["leagues", "teams", "all"]),
    trigger: z.enum(["admin", "webhook", "cron"]),
    actor: z
      .string()
      .nullable()
      .meta({ description: "Identity-provider user id (token `sub`) of the staff member who started an admin run; null for webhook and cron runs." }),
    status: z.enum(["running", "succeeded", "failed"]),
    startedAt: isoDateTime,
    finishedAt: isoDateTime.nullable(),
    summary: syncSummarySchema.nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: "SyncRun" });

export const syncTriggerBody = z
  .object({ dryRun: z.boolean().optional().meta({ description: "Compute what would change, write nothing (default false)." }) })
  .strict()
  .optional();

export const syncRunsQuery = z.object({ limit: intQuery(1, SYNC_RUNS_MAX_LIMIT, SYNC_RUNS_DEFAULT_LIMIT), cursor: cursorQuery }).strict();

export const syncRunsResult = z.object({ runs: z.array(syncRunSchema), nextCursor: z.string().optional() });

export const syncRunParams = z.object({ id: idString });
