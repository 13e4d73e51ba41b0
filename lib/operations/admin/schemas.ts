import { z } from "zod";
import { questCadence, questKind, questScope } from "../../features/quests/schemas";
import { repSource } from "../../core/rep/schemas";
import { milestoneMetric, rewardKind } from "../../features/rewards/schemas";

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

// Engagement: quests and their question bank, rewards, a user's Rep ledger. Form fields arrive as strings; an empty
// optional field means "not set".

/** An optional form field: empty or whitespace-only → undefined. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v), schema.optional());

const formInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** `<input type="datetime-local">` ("2026-11-24T10:00", seconds optional), read as UTC. */
export const utcDateTimeField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, "a date and time (UTC)")
  .transform((v) => new Date(`${v.length === 16 ? `${v}:00` : v}Z`))
  .refine((d) => !Number.isNaN(d.getTime()), "a valid date and time");

/** Lower-case letters, digits and single hyphens; also the console's form pattern (HTML anchors it itself). */
export const SLUG_PATTERN = "[a-z0-9]+(?:-[a-z0-9]+)*";
export const slugSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^${SLUG_PATTERN}$`), "lower-case letters, digits and single hyphens")
  .max(80);

// The values the console offers are the API's own enums.
export const QUEST_KINDS = questKind.options;
export const QUEST_SCOPES = questScope.options;
export const QUEST_CADENCES = questCadence.options;
export const REP_SOURCES = repSource.options;

const questWindow = {
  availableFrom: optional(utcDateTimeField),
  availableUntil: optional(utcDateTimeField),
};
const windowInOrder = (w: { availableFrom?: Date; availableUntil?: Date }) => !w.availableFrom || !w.availableUntil || w.availableFrom < w.availableUntil;

export const questCreateSchema = z
  .object({
    title: z.string().trim().min(1).max(120),
    slug: slugSchema,
    description: optional(z.string().max(500)),
    kind: z.enum(QUEST_KINDS),
    scope: z.enum(QUEST_SCOPES),
    teamId: optional(teamIdSchema),
    passId: optional(z.string().max(200)),
    cadence: z.enum(QUEST_CADENCES),
    repReward: formInt(0, 100_000),
    repSource: z.enum(REP_SOURCES),
    quizLength: optional(formInt(1, 20)),
    quizSeconds: optional(formInt(5, 120)),
    ...questWindow,
  })
  .refine(windowInOrder, { path: ["availableUntil"], message: "window" })
  .refine((q) => q.scope !== "team" || q.teamId, { path: ["teamId"], message: "team" })
  .refine((q) => q.scope !== "pass" || q.passId, { path: ["passId"], message: "pass" });
export type QuestCreate = z.infer<typeof questCreateSchema>;

export const questIdSchema = z.string().trim().min(1).max(200);

export const questWindowSchema = z.object({ questId: questIdSchema, ...questWindow }).refine(windowInOrder, { path: ["availableUntil"], message: "window" });

export const QUESTION_CHOICES_MAX = 6;

/**
 * A quiz question: a prompt, 2-6 choices filled from the first box on (no gaps), and the answer's position among
 * them. The database's CHECK (answer_index < cardinality(choices)) backs the last rule.
 */
export const questionCreateSchema = z
  .object({
    questId: questIdSchema,
    prompt: z.string().trim().min(1).max(300),
    choices: z.array(z.string().trim().max(120)).max(QUESTION_CHOICES_MAX),
    answerIndex: formInt(0, QUESTION_CHOICES_MAX - 1),
  })
  .transform((q, ctx) => {
    let last = q.choices.length;
    while (last > 0 && q.choices[last - 1] === "") last--;
    const choices = q.choices.slice(0, last);
    if (choices.length < 2 || choices.some((c) => c === "")) {
      ctx.addIssue({ code: "custom", path: ["choices"], message: "choices" });
      return z.NEVER;
    }
    if (q.answerIndex >= choices.length) {
      ctx.addIssue({ code: "custom", path: ["answerIndex"], message: "answer" });
      return z.NEVER;
    }
    return { ...q, choices };
  });
export type QuestionCreate = z.infer<typeof questionCreateSchema>;

export const REWARD_KINDS = rewardKind.options;
export const REWARD_MILESTONES = milestoneMetric.options;

export const rewardCreateSchema = z
  .object({
    title: z.string().trim().min(1).max(120),
    slug: slugSchema,
    description: optional(z.string().max(500)),
    kind: z.enum(REWARD_KINDS),
    costRep: formInt(0, 10_000_000),
    stock: optional(formInt(0, 10_000_000)),
    perUserLimit: optional(formInt(1, 1_000)),
    milestone: optional(z.enum(REWARD_MILESTONES)),
    milestoneValue: optional(formInt(1, 10_000_000)),
  })
  .refine((r) => r.kind !== "milestone" || (r.milestone && r.milestoneValue !== undefined), { path: ["milestone"], message: "milestone" })
  .refine((r) => r.kind !== "milestone" || r.costRep === 0, { path: ["costRep"], message: "milestone_cost" })
  .refine((r) => r.kind !== "redeem" || (!r.milestone && r.milestoneValue === undefined), { path: ["milestone"], message: "redeem_milestone" });
export type RewardCreate = z.infer<typeof rewardCreateSchema>;

export const rewardIdSchema = z.string().trim().min(1).max(200);
export const stockDeltaSchema = z.object({ rewardId: rewardIdSchema, delta: formInt(-10_000_000, 10_000_000).refine((n) => n !== 0) });
/** Set the stock outright: a number, or empty for unlimited. */
export const stockSetSchema = z.object({ rewardId: rewardIdSchema, stock: optional(formInt(0, 10_000_000)) });

export const userIdSchema = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "a user id");
export const reversalSchema = z.object({
  userId: userIdSchema,
  entryId: userIdSchema,
  reason: z.string().trim().min(3).max(200),
});

// Find anyone (the search box of every console page) and the fan page (docs/decisions/0059).

/** The search box: 1-200 characters; a leading @ (a handle as fans write it) is dropped. */
export const findQuerySchema = z
  .string()
  .trim()
  .max(200)
  .transform((q) => q.replace(/^@/, "").trim())
  .pipe(z.string().min(1));

/** The staff wallet adjustment on the fan page: the economy page's form plus the fan it is for. */
export { ADJUSTMENT_MAX } from "../../core/wallets/schemas";
