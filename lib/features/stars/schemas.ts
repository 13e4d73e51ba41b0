import { z } from "zod";
import { idString, isoDateTime } from "../../kernel/schemas";

export const STARRED_TEAMS_CAP = 50;

// Snapshot values a client keeps for clubs that may have no team row yet. Absent = keep, null = clear.
const snapshotFields = {
  slug: z.string().max(128).nullable().optional(),
  name: z.string().max(200).nullable().optional(),
  logo: z.string().max(2048).nullable().optional(),
};

export const starSnapshotBody = z.strictObject(snapshotFields).meta({ id: "StarSnapshot" });

export const starredTeamParams = z.strictObject({ teamId: idString });

export const starredTeam = z
  .object({
    id: z.string().meta({ description: "Team id; may be a provider club id with no synced team row." }),
    slug: z.string().nullable(),
    name: z.string().nullable(),
    logo: z.string().nullable(),
    source: z.string().nullable().meta({ description: "null when no team row exists." }),
    providerId: z.string().nullable().meta({ description: "null when no team row exists." }),
    starredAt: isoDateTime,
  })
  .meta({ id: "StarredTeam" });

export const starredTeamsList = z.object({ teams: z.array(starredTeam) }).meta({ id: "StarredTeamList" });

export const starResult = z.object({ starred: z.literal(true), team: starredTeam }).meta({ id: "StarResult" });
export const unstarResult = z.object({ starred: z.literal(false) }).meta({ id: "UnstarResult" });

export const mergeItem = z.strictObject({ id: idString, ...snapshotFields });
export const mergeBody = z.strictObject({
  // Items are checked one by one: a bad item is reported in `rejected`, not a 400 for the batch.
  teams: z.array(z.unknown()).max(200),
});

export const mergeResult = z
  .object({
    teams: z.array(starredTeam).meta({ description: "All starred teams after the merge." }),
    added: z.number().int().meta({ description: "How many ids were newly starred." }),
    skipped: z.number().int().meta({ description: "How many new ids were not starred because the cap was reached." }),
    rejected: z.array(
      z.object({
        index: z.number().int(),
        id: z.string().nullable(),
        reason: z.enum(["invalid", "over_cap"]),
      }),
    ),
  })
  .meta({ id: "StarMergeResult" });

export type StarSnapshot = z.infer<typeof starSnapshotBody>;
export type MergeItem = z.infer<typeof mergeItem>;
