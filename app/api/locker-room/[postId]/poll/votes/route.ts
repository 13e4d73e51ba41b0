import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postIdParams } from "@/lib/features/lockerroom/schemas";
import { pollResult, voteBody } from "@/lib/features/polls/schemas";
import { vote } from "@/lib/features/polls/service";
import { errors as pollsErrors } from "@/lib/features/polls/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Vote in a post's poll",
      description:
        "`choices`: exactly one option index for a single-choice poll, one or more distinct ones for a multiple-choice poll (400 naming the choice otherwise). A vote is final: a second one is 409 ALREADY_VOTED, also when sent concurrently; after the poll closes 409 POLL_CLOSED. Answers the poll with its results.",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      body: voteBody,
      rateLimit: "write",
      status: 201,
      response: pollResult,
      errors: [sharedErrors.NOT_FOUND, pollsErrors.POLL_CLOSED, pollsErrors.ALREADY_VOTED],
    },
    ({ user, params, body }) => vote(db, user, params.postId, body.choices),
  ),
});
