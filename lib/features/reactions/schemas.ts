import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime } from "../../kernel/schemas";

/** The reaction kinds: a small fixed set, like the apps' reaction bar. */
export const REACTION_KINDS = ["like", "love", "fire", "laugh", "wow", "sad"] as const;
export type ReactionKind = (typeof REACTION_KINDS)[number];

export const reactionBody = z
  .strictObject({ kind: z.enum(REACTION_KINDS).meta({ description: `One of ${REACTION_KINDS.join(", ")}.` }) })
  .meta({ id: "ReactionPut" });

export const reactionState = z
  .object({
    reactions: z.record(z.string(), z.number().int()).meta({ description: "The post's reactions per kind (kinds without any are left out)." }),
    reaction: z.enum(REACTION_KINDS).nullable().meta({ description: "The caller's reaction now." }),
  })
  .meta({ id: "ReactionState" });

export const reactionsQuery = z.strictObject({
  kind: z.enum(REACTION_KINDS).optional().meta({ description: "Only this kind." }),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});

export const reactionPage = z
  .object({
    reactions: z.array(
      z.object({
        user: z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() }),
        kind: z.enum(REACTION_KINDS),
        createdAt: isoDateTime,
      }),
    ),
    nextCursor: z.string().optional(),
  })
  .meta({ id: "ReactionPage" });
