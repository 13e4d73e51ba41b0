import { z } from "zod";
import { isoDateTime } from "../../kernel/schemas";

export const voteBody = z
  .strictObject({
    choices: z
      .array(z.number().int().min(0))
      .min(1)
      .max(5)
      .refine((c) => new Set(c).size === c.length, "The same option is chosen twice")
      .meta({ description: "Indexes of the chosen options: exactly one for a single-choice poll, one or more distinct ones for a multiple-choice poll." }),
  })
  .meta({ id: "PollVote" });

export const pollResult = z
  .object({
    options: z.array(z.object({ title: z.string(), votesCount: z.number().int().nullable() })),
    multiple: z.boolean(),
    closesAt: isoDateTime,
    closed: z.boolean(),
    votersCount: z.number().int().nullable(),
    ownVotes: z.array(z.number().int()).nullable().meta({ description: "The caller's choices, or null before voting (and signed out)." }),
  })
  .meta({
    id: "Poll",
    description: "votesCount and votersCount are null until the caller voted or the poll closed (the post's author always sees them).",
  });
