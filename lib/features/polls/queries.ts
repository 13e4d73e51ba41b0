import type { DbTx } from "../../db/client";

// Poll votes: a poll_voters row per voter (its primary key makes a vote once per user) and the poll's counters,
// moved in the same transaction under the poll's row lock.

export interface PollRow {
  options: string[];
  multiple: boolean;
  closesAt: Date;
  voteCounts: number[];
  votersCount: number;
  ownVotes: number[] | null;
}

export async function pollOf(tx: DbTx, postId: string, userId: string | null, { forUpdate = false } = {}): Promise<PollRow | undefined> {
  const rows = forUpdate
    ? await tx.$queryRaw<PollRow[]>`
        SELECT pp.options, pp.multiple, pp.closes_at AS "closesAt", pp.vote_counts AS "voteCounts", pp.voters_count AS "votersCount",
               (SELECT choices FROM poll_voters v WHERE v.post_id = pp.post_id AND v.user_id = ${userId}::uuid) AS "ownVotes"
        FROM post_polls pp WHERE pp.post_id = ${postId}::uuid FOR UPDATE`
    : await tx.$queryRaw<PollRow[]>`
        SELECT pp.options, pp.multiple, pp.closes_at AS "closesAt", pp.vote_counts AS "voteCounts", pp.voters_count AS "votersCount",
               (SELECT choices FROM poll_voters v WHERE v.post_id = pp.post_id AND v.user_id = ${userId}::uuid) AS "ownVotes"
        FROM post_polls pp WHERE pp.post_id = ${postId}::uuid`;
  return rows[0];
}

/** Records the vote once (none when the user already voted) and moves the counters. */
export async function castVote(tx: DbTx, postId: string, userId: string, choices: number[]): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ voted: boolean }[]>`
    WITH voter AS (
      INSERT INTO poll_voters (post_id, user_id, choices) VALUES (${postId}::uuid, ${userId}::uuid, ${choices}::int[])
      ON CONFLICT (post_id, user_id) DO NOTHING
      RETURNING 1),
    counted AS (
      UPDATE post_polls SET voters_count = voters_count + 1,
             vote_counts = ARRAY(SELECT c + (i - 1 = ANY(${choices}::int[]))::int FROM unnest(vote_counts) WITH ORDINALITY AS x(c, i) ORDER BY i)
      WHERE post_id = ${postId}::uuid AND EXISTS (SELECT 1 FROM voter)
      RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM counted) AS voted`;
  return row!.voted;
}
