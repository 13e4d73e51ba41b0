import { z } from "zod";
import { pageSchema } from "../http/page";
import { cursorQuery, intQuery, isoDateTime } from "../http/schemas";

export const completedQuestsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const completedQuest = z
  .object({
    questId: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    teamId: z.string().nullable().meta({ description: "Team the quest belongs to, or null for a global quest." }),
    repReward: z.number().int(),
    isDaily: z.boolean(),
    completedAt: isoDateTime,
  })
  .meta({ id: "CompletedQuest" });

export const completedQuestPage = pageSchema("quests", completedQuest, {
  id: "CompletedQuestPage",
  nextCursor: "Present only when more completions remain.",
});
