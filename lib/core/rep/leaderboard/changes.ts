import { env } from "../../../env";
import { changeFeed, compareIds, type ChangeFeed } from "../../../redis/changes";

// The boards' change feed, which live streams follow: moveBoards appends each score it writes to one capped Redis
// Stream (the last FEED_LENGTH changes), read by every instance (lib/redis/changes.ts: the polling, the resume from
// Last-Event-ID, the in-process fallback without Redis).

export { compareIds };

export interface BoardChange {
  /** The feed's id of the change ("<ms>-<seq>", increasing): the SSE event id. */
  id: string;
  key: string;
  member: string;
  score: number;
}

export const FEED_LENGTH = 10_000;

export type BoardFeed = ChangeFeed<{ key: string; member: string; score: number }, BoardChange>;

/** The process's feed, on the Redis of the boards (decided once). */
export function boardFeed(): Promise<BoardFeed> {
  return changeFeed("leaderboard", `${env().LEADERBOARD_PREFIX}:changes`, FEED_LENGTH, {
    encode: (c: { key: string; member: string; score: number }) => [c.key, c.member, String(c.score)],
    decode: (id, key, member, score): BoardChange => ({ id, key, member, score: Number(score) }),
  });
}
