import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { bindersResponse, reorderBody } from "@/lib/features/binders/schemas";
import { orderBinders } from "@/lib/features/binders/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Reorder my binders",
      description:
        "`binderIds`: every one of the caller's binders, each once, in the new order (anything else is a 400 naming `body.binderIds`). Answers the binders in that order.",
      tags: ["Binders"],
      auth: "bearer",
      body: reorderBody,
      rateLimit: "write",
      response: bindersResponse,
    },
    ({ user, body }) => orderBinders(db, user.id, body.binderIds),
  ),
});
