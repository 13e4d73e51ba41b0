import { collectibleDetail, collectibleParams } from "@/lib/core/collectibles/schemas";
import { getCollectible } from "@/lib/core/collectibles/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A collectible and its owners",
      description:
        "One collectible: its card, serial, current owner, and owner history oldest first (drawn from a pack, then each sale or accepted offer, with its price). Public, like a showcase. Unknown id: 404.",
      tags: ["Collectibles"],
      auth: "optional",
      params: collectibleParams,
      response: collectibleDetail,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => getCollectible(db, params.collectibleId),
  ),
});
