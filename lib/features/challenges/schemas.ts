import { z } from "zod";
import { card, collectible } from "../../core/collectibles/schemas";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, idString, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

// Collection challenges: requests and answers (lib/features/challenges/service.ts).

/** Cards one challenge asks for, copies of one card, collectibles in one entry. */
export const CHALLENGE_MAX_CARDS = 20;
export const CHALLENGE_MAX_COUNT = 5;
export const ENTRY_MAX_ITEMS = 100;
export const REWARD_SUPPLY_MAX = 10_000;
export const CHALLENGE_REP_MAX = 100_000;
/** Owned copies shown per required card in a caller's progress. */
export const PROGRESS_COPIES_MAX = 50;

export const CHALLENGE_STATUSES = ["upcoming", "open", "ended"] as const;

export const challengeParams = z.strictObject({ challengeId: uuidString("Challenge id (UUID).") });

export const challengesQuery = z.strictObject({
  status: z.enum(CHALLENGE_STATUSES).optional().meta({ description: "upcoming (not started), open (running) or ended; omitted: all." }),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});

const uniqueIds = <T extends z.ZodType<string[]>>(schema: T) =>
  schema.superRefine((ids, ctx) => {
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: [i], message: "Listed twice" });
    });
  });

export const entryBody = z
  .strictObject({
    collectibleIds: uniqueIds(z.array(uuidString("A collectible of the caller's (UUID).")).min(1).max(ENTRY_MAX_ITEMS)).meta({
      description: `The caller's collectibles the entry holds (1..${ENTRY_MAX_ITEMS}, each once): copies of the required cards, at most the count asked of each. Replaces the entry's items.`,
    }),
  })
  .meta({ id: "ChallengeEntryPut" });
export type EntryInput = z.infer<typeof entryBody>;

export const challengeCreateBody = z
  .strictObject({
    title: z.string().trim().min(1).max(120),
    description: z.string().trim().min(1).max(2_000).optional(),
    startsAt: z.iso.datetime({ offset: true }).meta({ description: "When entries open (may be now or in the past)." }),
    endsAt: z.iso.datetime({ offset: true }).meta({ description: "The deadline: after startsAt and in the future, at most a year ahead." }),
    cards: z
      .array(
        z.strictObject({
          cardId: idString.meta({ description: "A catalog card id." }),
          count: z
            .number()
            .int()
            .min(1)
            .max(CHALLENGE_MAX_COUNT)
            .optional()
            .default(1)
            .meta({ description: `Copies asked (1..${CHALLENGE_MAX_COUNT}, default 1).` }),
        }),
      )
      .min(1)
      .max(CHALLENGE_MAX_CARDS)
      .superRefine((cards, ctx) => {
        cards.forEach((c, i) => {
          if (cards.findIndex((x) => x.cardId === c.cardId) !== i) ctx.addIssue({ code: "custom", path: [i, "cardId"], message: "Listed twice" });
        });
      }),
    reward: z
      .strictObject({
        cardId: idString.optional().meta({ description: "The card whose copies are the reward (its edition must have `supply` copies left)." }),
        supply: z
          .number()
          .int()
          .min(1)
          .max(REWARD_SUPPLY_MAX)
          .optional()
          .meta({ description: `Reward copies (1..${REWARD_SUPPLY_MAX}); with cardId.` }),
        rep: z.number().int().min(0).max(CHALLENGE_REP_MAX).optional().default(0).meta({ description: "Rep credited to each completing collector." }),
      })
      .superRefine((r, ctx) => {
        if ((r.cardId === undefined) !== (r.supply === undefined)) ctx.addIssue({ code: "custom", path: ["supply"], message: "cardId and supply go together" });
        if (r.cardId === undefined && r.rep === 0) ctx.addIssue({ code: "custom", path: ["rep"], message: "A reward is a card, Rep or both" });
      }),
  })
  .meta({ id: "ChallengeCreate" });
export type ChallengeCreateInput = z.infer<typeof challengeCreateBody>;

export const challenge = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    startsAt: isoDateTime,
    endsAt: isoDateTime,
    status: z.enum(CHALLENGE_STATUSES),
    cards: z.array(z.object({ card, count: z.number().int() })).meta({ description: "The set to complete: each card and the copies asked." }),
    reward: z.object({
      card: card.nullable().meta({ description: "The card whose copies are given; null: Rep only." }),
      supply: z.number().int().meta({ description: "Reward copies in all (0 without a card)." }),
      firstSerial: z.number().int().nullable().meta({ description: "The copies are serials firstSerial .. firstSerial + supply - 1." }),
      remaining: z.number().int().meta({ description: "Copies not given yet." }),
      rep: z.number().int().meta({ description: "Rep credited to each completing collector." }),
    }),
    completions: z.number().int().meta({ description: "Collectors who completed the set." }),
    fairness: z
      .object({
        seedHash: z.string().meta({ description: "SHA-256 (hex) of the secret seed ordering the reward serials, shown from the start." }),
        seed: z.string().nullable().meta({ description: "The seed (hex), shown once the challenge has ended; null before." }),
      })
      .meta({
        description:
          'Rank k (the k-th completion) gets serial firstSerial + order[k-1], order a Fisher–Yates shuffle of 0..supply-1 driven by HMAC-SHA256(seed, "<challengeId>:<i>") (docs/domains/challenges.md).',
      }),
    createdAt: isoDateTime,
  })
  .meta({ id: "Challenge" });

export const challengePage = pageSchema("challenges", challenge, { id: "ChallengePage", nextCursor: "Present only when more challenges remain." });

const copy = z
  .object({
    collectible,
    inEntry: z.boolean().meta({ description: "In the caller's entry of this challenge." }),
    eligible: z
      .boolean()
      .meta({ description: "May go in the entry now: in it already, or not listed, minted nor locked (in another challenge or a contest's lineup)." }),
    lockedBy: z
      .object({ challengeId: z.string(), title: z.string(), endsAt: isoDateTime })
      .nullable()
      .meta({ description: "Another challenge whose entry holds it." }),
    lockedInContest: z
      .object({ contestId: z.string(), title: z.string() })
      .nullable()
      .meta({ description: "A contest whose lineup holds it until the contest settles." }),
    listed: z.boolean(),
    minted: z.boolean(),
  })
  .meta({ id: "ChallengeCopy" });

export const progress = z
  .object({
    cards: z.array(
      z.object({
        cardId: z.string(),
        count: z.number().int(),
        inEntry: z.number().int().meta({ description: "Copies of this card in the entry." }),
        owned: z.array(copy).meta({ description: `The caller's copies of the card (at most ${PROGRESS_COPIES_MAX}).` }),
      }),
    ),
    entry: z
      .object({
        collectibleIds: z.array(z.string()),
        completedAt: isoDateTime.nullable(),
        createdAt: isoDateTime,
        updatedAt: isoDateTime,
      })
      .nullable(),
    complete: z.boolean(),
    reward: z
      .object({
        rank: z.number().int().meta({ description: "The caller's completion order (1 = first)." }),
        serial: z.number().int().nullable().meta({ description: "The reward copy's serial; null when none was left (or Rep only)." }),
        collectibleId: z.string().nullable(),
        rep: z.number().int(),
        at: isoDateTime,
      })
      .nullable(),
  })
  .meta({ id: "ChallengeProgress" });

export const challengeDetail = z
  .object({ challenge, progress: progress.nullable().meta({ description: "The caller's progress; null without a session." }) })
  .meta({ id: "ChallengeDetail" });
export const entryResponse = z.object({ challenge, progress }).meta({ id: "ChallengeEntryResponse" });
export const challengeResponse = z.object({ challenge }).meta({ id: "ChallengeResponse" });
