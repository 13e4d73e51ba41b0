import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { pack, packParams } from "@/lib/features/packs/schemas";
import { getPack } from "@/lib/features/packs/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A pack",
      description:
        "One active pack with its odds (as in GET /api/v1/packs). The full odds table, with the pool of cards a draw indexes: GET /api/v1/packs/{packId}/odds/{version}. Unknown or inactive: 404.",
      tags: ["Packs"],
      auth: "optional",
      params: packParams,
      response: pack,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => getPack(db, params.packId),
  ),
});
