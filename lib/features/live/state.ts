import type { Corrected, GameEventRow, LiveStatus } from "./queries";

// The pure part of the live state: a game's status and score, and what the amendments made of each event, computed
// from the set of its events alone (never from the order they arrived in), so a late or replayed event cannot move
// the game back. See docs/domains/live.md.

export interface AmendmentMark {
  amendedBy: string;
  voided: boolean;
  corrected: Corrected | null;
}

interface AmendmentData {
  action?: "void" | "restore" | "change";
  changes?: Partial<Corrected>;
}

/** Each amended event's mark (by provider event id): its amendments applied in seq order. */
export function foldAmendments(events: GameEventRow[]): Map<string, AmendmentMark> {
  const byTarget = new Map<string, GameEventRow[]>();
  for (const e of events) if (e.type === "amendment" && e.amends) byTarget.set(e.amends, [...(byTarget.get(e.amends) ?? []), e]);
  const targets = new Map(events.map((e) => [e.eventId, e]));
  const marks = new Map<string, AmendmentMark>();
  for (const [targetId, amendments] of byTarget) {
    const target = targets.get(targetId);
    if (!target) continue; // not received yet: marked when it comes
    amendments.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : a.id.localeCompare(b.id)));
    let voided = false;
    let corrected: Corrected | null = null;
    for (const a of amendments) {
      const d = (a.data ?? {}) as AmendmentData;
      if (d.action === "void") voided = true;
      else if (d.action === "restore") voided = false;
      else if (d.action === "change" && d.changes) {
        corrected = {
          ...(corrected ?? { teamId: target.teamId, playerId: target.playerId, player2Id: target.player2Id, minute: target.minute }),
          ...Object.fromEntries(Object.entries(d.changes).filter(([, v]) => v !== undefined)),
        };
      }
    }
    marks.set(targetId, { amendedBy: amendments[amendments.length - 1]!.eventId, voided, corrected });
  }
  return marks;
}

export interface LiveState {
  /** null: no event decides the status (the games row keeps the league sync's). */
  status: LiveStatus | null;
  /** null: no event decides the score. */
  score: { home: number; away: number } | null;
}

const STATUS_OF: Record<string, LiveStatus | undefined> = { kickoff: "live", period_start: "live", period_end: "live", full_time: "final" };

/**
 * The status: the newest (highest seq) status-bearing event's. The score: the newest `score` event's (the provider's
 * own tally), plus the goals newer than it, each counted for its team after amendments; a voided event counts for
 * nothing. Kicked off without a goal: 0–0.
 */
export function computeState(events: GameEventRow[], marks: Map<string, AmendmentMark>, game: { homeTeamId: string; awayTeamId: string }): LiveState {
  const counts = (e: GameEventRow) => !marks.get(e.eventId)?.voided;
  let status: LiveStatus | null = null;
  let statusSeq = -1n;
  let base: { home: number; away: number; seq: bigint } | null = null;
  for (const e of events) {
    if (!counts(e)) continue;
    const s = e.type === "status" ? ((e.data as { status?: LiveStatus }).status ?? null) : (STATUS_OF[e.type] ?? null);
    if (s && e.seq > statusSeq) {
      status = s;
      statusSeq = e.seq;
    }
    if (e.type === "score" && (!base || e.seq > base.seq)) {
      const d = e.data as { home: number; away: number };
      base = { home: d.home, away: d.away, seq: e.seq };
    }
  }
  const goals = events.filter((e) => e.type === "goal" && counts(e) && (!base || e.seq > base.seq));
  if (!base && !goals.length) return { status, score: status === "live" || status === "final" ? { home: 0, away: 0 } : null };
  const score = { home: base?.home ?? 0, away: base?.away ?? 0 };
  for (const g of goals) {
    const teamId = marks.get(g.eventId)?.corrected?.teamId ?? g.teamId;
    if (teamId === game.homeTeamId) score.home++;
    else if (teamId === game.awayTeamId) score.away++;
  }
  return { status, score };
}
