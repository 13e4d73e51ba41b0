import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sportsCatalog } from "@/lib/core/leagues/schemas";
import { getSportsCatalog } from "@/lib/core/leagues/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Sports catalog",
      description:
        "Bare `{ sports }` derived only from the non-archived leagues' sport values (normalised; no second list of sports). Sports are ordered by the smallest displayOrder of their leagues, then id; `label` capitalises the id. " +
        "Takes no input (query strings are ignored) and answers `Cache-Control: public, max-age=300`. If the database fails, the process serves the last catalog it built; only with none does it answer an error (503 SERVICE_UNAVAILABLE while the database is unreachable), on which native clients use their local copy. " +
        "Signing in is optional; an invalid token is a 401.",
      tags: ["Leagues"],
      auth: "optional",
      envelope: false,
      cache: { maxAge: 300 },
      response: sportsCatalog,
    },
    () => getSportsCatalog(db),
  ),
});
