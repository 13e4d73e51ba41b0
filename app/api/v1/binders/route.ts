import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { binderResponse, BINDERS_MAX, bindersResponse, createBinderBody } from "@/lib/features/binders/schemas";
import { createBinder, listBinders } from "@/lib/features/binders/service";
import { errors as bindersErrors } from "@/lib/features/binders/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My binders",
      description: "The caller's binders, public and private, in their order. Someone else's public binders: GET /api/v1/users/{userId}/binders.",
      tags: ["Binders"],
      auth: "bearer",
      response: bindersResponse,
    },
    ({ user }) => listBinders(db, user.id, user.id),
  ),
  POST: route(
    {
      summary: "Create a binder",
      description: `A new binder (\`name\` 1..60 characters, \`isPublic\` default false) at the end of the caller's order; at most ${BINDERS_MAX} per user (409 BINDER_LIMIT_REACHED, also under concurrent creates).`,
      tags: ["Binders"],
      auth: "bearer",
      body: createBinderBody,
      rateLimit: "write",
      status: 201,
      response: binderResponse,
      errors: [bindersErrors.BINDER_LIMIT_REACHED],
    },
    ({ user, body }) => createBinder(db, user.id, body),
  ),
});
