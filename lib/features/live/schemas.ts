import { z } from "zod";
import { cursorQuery, idString, intQuery, isoDateTime } from "../../kernel/schemas";
import { pageSchema } from "../../kernel/page";

// Route schemas of the live match centre: the provider's event batch (webhook and console replay), the live list,
// the timeline, the stats.

export const LIVE_BATCH_MAX = 500;
export const LIVE_WEBHOOK_BODY_LIMIT = 256 * 1024;

const eventId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^\s]+$/, "Must not contain whitespace")
  .meta({ description: "The provider's event id: a replay of it is a no-op." });
const minute = z.number().int().min(0).max(300).optional().meta({ description: "The game clock's minute." });
const base = {
  id: eventId,
  gameId: idString.meta({ description: "Game id (as the league sync names it)." }),
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ description: "The provider's sequence number within the game: higher is newer." }),
  minute,
  occurredAt: isoDateTime.optional(),
};
const team = idString.meta({ description: "The home or the away team's id." });
const player = idString.meta({ description: "A player id (as the league sync names it)." });

export const LIVE_STATUSES = ["scheduled", "live", "final", "postponed", "canceled"] as const;

const period = z.strictObject({
  ...base,
  type: z.enum(["kickoff", "period_start", "period_end", "full_time"]),
  period: z.number().int().min(1).max(20).optional(),
});
const goal = z.strictObject({
  ...base,
  type: z.literal("goal"),
  teamId: team.meta({ description: "The team credited with the goal." }),
  playerId: player.optional(),
  player2Id: player.optional().meta({ description: "The assist." }),
  ownGoal: z.boolean().optional(),
  penalty: z.boolean().optional(),
});
const card = z.strictObject({ ...base, type: z.literal("card"), teamId: team, playerId: player, card: z.enum(["yellow", "red"]) });
const substitution = z.strictObject({
  ...base,
  type: z.literal("substitution"),
  teamId: team,
  playerId: player.meta({ description: "The player going off." }),
  player2Id: player.meta({ description: "The player coming on." }),
});
const score = z.strictObject({ ...base, type: z.literal("score"), home: z.number().int().min(0).max(999), away: z.number().int().min(0).max(999) });
const status = z.strictObject({ ...base, type: z.literal("status"), status: z.enum(LIVE_STATUSES) });
const count = z.number().int().min(0).max(999);
export const statLineSchema = z
  .strictObject({
    minutes: count,
    goals: count,
    assists: count,
    shots: count,
    saves: count,
    yellowCards: count,
    redCards: count,
  })
  .meta({ id: "LivePlayerStats" });
const statLine = z.strictObject({
  ...base,
  type: z.literal("stat_line"),
  teamId: team,
  playerId: player,
  stats: statLineSchema.meta({ description: "The player's counting stats so far (totals, not deltas): the line with the highest seq wins." }),
});
const amendment = z.strictObject({
  ...base,
  type: z.literal("amendment"),
  amends: eventId.meta({ description: "The provider event id this corrects." }),
  action: z
    .enum(["void", "restore", "change"])
    .meta({ description: "`void`: the event did not count (a disallowed goal); `restore`: it counts again; `change`: its fields below change." }),
  changes: z
    .strictObject({ teamId: team.optional(), playerId: player.optional(), player2Id: player.optional(), minute: z.number().int().min(0).max(300).optional() })
    .optional(),
  reason: z.string().max(200).optional(),
});

export const liveEventInput = z
  .discriminatedUnion("type", [period, goal, card, substitution, score, status, statLine, amendment])
  .meta({ id: "LiveEventInput", description: "One provider event; `type` decides its fields." });
export type LiveEventInput = z.infer<typeof liveEventInput>;

export const liveBatchBody = z.strictObject({ events: z.array(liveEventInput).min(1).max(LIVE_BATCH_MAX) }).meta({ id: "LiveEventBatch" });
export type LiveBatch = z.infer<typeof liveBatchBody>;

const scoreSchema = z.object({ home: z.number().int(), away: z.number().int() });

export const ingestResultSchema = z
  .object({
    received: z.number().int(),
    applied: z.number().int().meta({ description: "New events stored now." }),
    duplicates: z.number().int().meta({ description: "Events already received (by provider event id): nothing done." }),
    rejected: z
      .array(z.object({ id: z.string(), reason: z.string() }))
      .meta({ description: "Events refused (unknown game, team or player): not stored; send them again once fixed." }),
    games: z
      .array(z.object({ id: z.string(), status: z.enum(LIVE_STATUSES), score: scoreSchema.nullable() }))
      .meta({ description: "Each game's state after the batch." }),
  })
  .meta({ id: "LiveIngestResult" });
export type IngestResult = z.infer<typeof ingestResultSchema>;

const timelinePlayer = z.object({
  teamId: z.string().nullable(),
  playerId: z.string().nullable(),
  player2Id: z.string().nullable(),
  minute: z.number().int().nullable(),
});

export const timelineItemSchema = z
  .object({
    id: z.string().meta({ description: "The provider event id." }),
    gameId: z.string(),
    seq: z.number().int(),
    type: z.string(),
    minute: z.number().int().nullable(),
    teamId: z.string().nullable(),
    playerId: z.string().nullable(),
    player2Id: z.string().nullable(),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: "The type's own fields as received (card, home/away, status, stats, amends/action/changes, …)." }),
    amends: z.string().nullable().meta({ description: "An amendment: the event it corrects." }),
    amendedBy: z.string().nullable().meta({ description: "Corrected by this amendment (the newest); the fields above stay as received." }),
    voided: z.boolean().meta({ description: "Voided by an amendment (a disallowed goal): it no longer counts." }),
    corrected: timelinePlayer.nullable().meta({ description: "The event's fields after its amendments; null when none changed it." }),
    receivedAt: isoDateTime,
  })
  .meta({ id: "LiveTimelineItem" });

export const timelineQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });
export const timelinePage = pageSchema("events", timelineItemSchema, { id: "LiveTimelinePage" });

const teamRef = z.object({ id: z.string(), name: z.string() });

export const liveGameSchema = z
  .object({
    id: z.string(),
    league: z.object({ id: z.string(), name: z.string() }),
    startsAt: isoDateTime,
    status: z.enum(LIVE_STATUSES),
    homeTeam: teamRef,
    awayTeam: teamRef,
    score: scoreSchema.nullable(),
    minute: z.number().int().nullable().meta({ description: "The newest timeline event's minute." }),
    lastEventAt: isoDateTime.nullable(),
  })
  .meta({ id: "LiveGame" });

export const liveQuery = z.strictObject({
  scope: z
    .enum(["mine", "all"])
    .default("mine")
    .meta({ description: "`mine` (default): the caller's teams (followed or joined); `all`: every game in progress." }),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});
export const livePage = pageSchema("games", liveGameSchema, { id: "LiveGamesPage" });

const statTotals = z.object({
  minutes: z.number().int(),
  goals: z.number().int(),
  assists: z.number().int(),
  shots: z.number().int(),
  saves: z.number().int(),
  yellowCards: z.number().int(),
  redCards: z.number().int(),
});

export const gameStatsSchema = z
  .object({
    gameId: z.string(),
    status: z.enum(LIVE_STATUSES),
    score: scoreSchema.nullable(),
    teams: z.array(z.object({ teamId: z.string(), side: z.enum(["home", "away"]), totals: statTotals })),
    players: z.array(
      z.object({ playerId: z.string(), name: z.string(), teamId: z.string(), stats: statTotals, seq: z.number().int(), updatedAt: isoDateTime }),
    ),
  })
  .meta({ id: "LiveGameStats" });
