import { z } from "zod";
import { collectible } from "../../core/collectibles/schemas";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, idString, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

// Contests: requests and answers (lib/features/contests/service.ts).

export const LINEUP_MAX = 11;
export const CONTEST_MAX_GAMES = 20;
export const PRIZE_RANKS_MAX = 100;
export const PRIZE_MAX = 100_000;
export const RARITIES = ["common", "rare", "epic", "legendary"] as const;
export const CONTEST_STATUSES = ["open", "live", "settled"] as const;
/** A slot rule: one position ("QB"), several separated by "/" ("RB/WR"), or "*" (any position). */
export const SLOT_PATTERN = /^(\*|[A-Za-z0-9]{1,8}(\/[A-Za-z0-9]{1,8}){0,7})$/;

export const contestParams = z.strictObject({ contestId: uuidString("Contest id (UUID).") });

export const contestsQuery = z.strictObject({
  status: z.enum(CONTEST_STATUSES).optional().meta({ description: "open (lineups editable), live (locked, not settled) or settled; omitted: all." }),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});

export const leaderboardQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });

export const lineupBody = z
  .strictObject({
    cards: z
      .array(
        z.strictObject({
          collectibleId: uuidString("A collectible of the caller's (UUID): a player card."),
          slot: z
            .number()
            .int()
            .min(0)
            .max(LINEUP_MAX - 1)
            .meta({ description: "The contest's slot (0-based index into its slots) the card fills." }),
          captain: z.boolean().optional().default(false).meta({ description: "The lineup's captain: exactly one card." }),
        }),
      )
      .min(1)
      .max(LINEUP_MAX)
      .superRefine((cards, ctx) => {
        cards.forEach((c, i) => {
          if (cards.findIndex((x) => x.collectibleId === c.collectibleId) !== i)
            ctx.addIssue({ code: "custom", path: [i, "collectibleId"], message: "Listed twice" });
          if (cards.findIndex((x) => x.slot === c.slot) !== i) ctx.addIssue({ code: "custom", path: [i, "slot"], message: "Slot filled twice" });
        });
        const captains = cards.map((c, i) => (c.captain ? i : -1)).filter((i) => i >= 0);
        if (captains.length === 0) ctx.addIssue({ code: "custom", path: [], message: "A lineup has exactly one captain: none named" });
        captains.slice(1).forEach((i) => ctx.addIssue({ code: "custom", path: [i, "captain"], message: "A lineup has exactly one captain" }));
      })
      .meta({ description: `The lineup: exactly the contest's lineupSize cards (at most ${LINEUP_MAX}), each once, each in its own slot, one captain.` }),
  })
  .meta({ id: "ContestLineupPut" });
export type LineupInput = z.infer<typeof lineupBody>;

export const contestCreateBody = z
  .strictObject({
    title: z.string().trim().min(1).max(120),
    gameIds: z
      .array(idString)
      .min(1)
      .max(CONTEST_MAX_GAMES)
      .superRefine((ids, ctx) => {
        ids.forEach((id, i) => {
          if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: [i], message: "Listed twice" });
        });
      })
      .meta({ description: "The games the contest covers: scheduled, not yet kicked off." }),
    slots: z
      .array(z.string().trim().regex(SLOT_PATTERN, 'A position ("QB"), several ("RB/WR") or "*"'))
      .min(1)
      .max(LINEUP_MAX)
      .meta({ description: 'The lineup\'s slots (their number is the lineup size): each a position ("QB"), several ("RB/WR") or "*" (any).' }),
    rarityCap: z
      .partialRecord(z.enum(RARITIES), z.number().int().min(0).max(LINEUP_MAX))
      .optional()
      .default({})
      .meta({ description: "At most this many cards of a rarity per lineup; a rarity left out has no cap." }),
    captainMultiplier: z.number().int().min(1).max(3).optional().default(2).meta({ description: "The captain's points are multiplied by this (default 2)." }),
    prizes: z
      .array(z.number().int().min(0).max(PRIZE_MAX))
      .min(1)
      .max(PRIZE_RANKS_MAX)
      .meta({ description: "Rep by rank: prizes[0] to rank 1, prizes[1] to rank 2, …" }),
    lockAt: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: "An explicit lock, in the future and not after the earliest kick-off; omitted: the earliest covered game's kick-off." }),
  })
  .meta({ id: "ContestCreate" });
export type ContestCreateInput = z.infer<typeof contestCreateBody>;

const contestGame = z.object({ id: z.string(), startsAt: isoDateTime, status: z.string(), homeTeamId: z.string(), awayTeamId: z.string() });

export const contest = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(CONTEST_STATUSES),
    lineupSize: z.number().int(),
    slots: z.array(z.string()).meta({ description: 'Slot i accepts a player whose position is one of slots[i] ("RB/WR"), any for "*".' }),
    rarityCap: z.record(z.string(), z.number().int()).meta({ description: "At most this many cards of a rarity per lineup." }),
    captainMultiplier: z.number().int(),
    prizes: z.array(z.number().int()).meta({ description: "Rep by rank (index 0: rank 1)." }),
    lockAt: isoDateTime.meta({ description: "The lock in force: the earlier of the set lock and the covered games' kick-offs now." }),
    games: z.array(contestGame),
    lineupCount: z.number().int(),
    settledAt: isoDateTime.nullable(),
    settledVersion: z.number().int().meta({ description: "Settlements so far (more than 1 after re-settlements of amended stats)." }),
    createdAt: isoDateTime,
  })
  .meta({ id: "Contest" });

export const contestPage = pageSchema("contests", contest, { id: "ContestPage", nextCursor: "Present only when more contests remain." });

export const lineup = z
  .object({
    contestId: z.string(),
    userId: z.string(),
    captainId: z.string(),
    submittedAt: isoDateTime,
    cards: z.array(
      z.object({
        slot: z.number().int(),
        position: z.string().nullable(),
        captain: z.boolean(),
        void: z.boolean().meta({ description: "The card had left its owner by the settlement: its slot scored 0." }),
        collectible,
      }),
    ),
    score: z.number().int().nullable(),
    captainScore: z.number().int().nullable(),
    rank: z.number().int().nullable(),
    prize: z.number().int().meta({ description: "Rep paid for this lineup so far." }),
  })
  .meta({ id: "ContestLineup" });

export const contestDetail = z
  .object({ contest, lineup: lineup.nullable().meta({ description: "The caller's lineup; null without one or a session." }) })
  .meta({ id: "ContestDetail" });
export const lineupResponse = z.object({ contest, lineup }).meta({ id: "ContestLineupResponse" });
export const lineupDeleted = z.object({ contest, lineup: z.null() }).meta({ id: "ContestLineupDeleted" });
export const contestResponse = z.object({ contest }).meta({ id: "ContestResponse" });

const standing = z
  .object({
    rank: z.number().int(),
    user: z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() }),
    score: z.number().int(),
    captainScore: z.number().int(),
    submittedAt: isoDateTime,
    prize: z.number().int(),
  })
  .meta({ id: "ContestStanding" });

export const leaderboardPage = pageSchema("standings", standing, { nextCursor: "Present only when more lineups remain." })
  .extend({ me: standing.nullable().meta({ description: "The caller's own standing; null without a lineup or a session." }) })
  .meta({ id: "ContestLeaderboard" });

export const cronResult = z.object({ settled: z.number().int(), resettled: z.number().int(), checked: z.number().int() }).meta({ id: "ContestsCronResult" });
