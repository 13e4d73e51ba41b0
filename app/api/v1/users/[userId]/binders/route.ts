import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { bindersResponse, userParams } from "@/lib/features/binders/schemas";
import { listBinders } from "@/lib/features/binders/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A fan's binders",
      description:
        "The user's public binders in their order: none when their profile is private (an unknown user, too, has none). The user themselves sees all of theirs, as in GET /api/v1/binders.",
      tags: ["Binders"],
      auth: "optional",
      params: userParams,
      response: bindersResponse,
    },
    ({ user, params }) => listBinders(db, user?.id ?? null, params.userId),
  ),
});
