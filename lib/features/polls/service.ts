import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import { DomainError, notFound, validationError } from "../../kernel/errors";
import { visiblePost, type Viewer } from "../../core/visibility/service";
import { castVote, pollOf, type PollRow } from "./queries";
import { errors as pollsErrors } from "./errors";

// A post's poll and its votes. A vote is final (Mastodon's rule): one per user, never after the poll closes. The
// vote runs under the poll's row lock, so the counters equal the voters however many vote at once.

function toPoll(p: PollRow, authorId: string, viewer: Viewer, now = new Date()) {
  const closed = p.closesAt <= now;
  const show = closed || p.ownVotes !== null || viewer?.id === authorId;
  return {
    options: p.options.map((title, i) => ({ title, votesCount: show ? (p.voteCounts[i] ?? 0) : null })),
    multiple: p.multiple,
    closesAt: p.closesAt.toISOString(),
    closed,
    votersCount: show ? p.votersCount : null,
    ownVotes: p.ownVotes,
  };
}

export async function getPoll(db: Db, viewer: Viewer, postId: string) {
  const post = await visiblePost(db, postId, viewer);
  const poll = await pollOf(db, postId, viewer?.id ?? null);
  if (!poll) throw notFound("Poll");
  return toPoll(poll, post.authorId, viewer);
}

export async function vote(db: Db, user: AuthUser, postId: string, choices: number[], now = new Date()) {
  return db.$transaction(async (tx) => {
    const post = await visiblePost(tx, postId, user);
    const poll = await pollOf(tx, postId, user.id, { forUpdate: true });
    if (!poll) throw notFound("Poll");
    if (poll.closesAt <= now) throw new DomainError(pollsErrors.POLL_CLOSED, "This poll has closed.");
    if (poll.ownVotes) throw new DomainError(pollsErrors.ALREADY_VOTED, "You already voted in this poll.");
    if (!poll.multiple && choices.length !== 1) {
      throw validationError("This poll takes exactly one choice.", [{ path: "body.choices", message: "Exactly one choice" }]);
    }
    const bad = choices.findIndex((c) => c >= poll.options.length);
    if (bad >= 0) throw validationError("No such option.", [{ path: `body.choices.${bad}`, message: `Options are 0..${poll.options.length - 1}` }]);
    if (!(await castVote(tx, postId, user.id, choices))) throw new DomainError(pollsErrors.ALREADY_VOTED, "You already voted in this poll.");
    const after = await pollOf(tx, postId, user.id);
    return toPoll(after!, post.authorId, user, now);
  }, txOptions());
}
