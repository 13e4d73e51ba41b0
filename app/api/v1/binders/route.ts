import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { binderResponse, BINDERS_MAX, bindersQuery, bindersResponse, createBinderBody } from "@/lib/binders/schemas";
import { createBinder, listBinders } from "@/lib/binders/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Binders",
      description:
        "The caller's binders in their order (signed in, no `userId`), or `userId`'s public binders (none when that profile is private; the caller's own when it is them). Signed out without `userId`: 401.",
      tags: ["Binders"],
      auth: "optional",
      query: bindersQuery,
      response: bindersResponse,
      errors: ["UNAUTHORIZED"],
    },
    ({ user, query }) => listBinders(db, user?.id ?? null, query.userId?.toLowerCase()),
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
      errors: ["BINDER_LIMIT_REACHED"],
    },
    ({ user, body }) => createBinder(db, user.id, body),
  ),
});
