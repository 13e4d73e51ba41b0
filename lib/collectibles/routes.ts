import * as cards from "@/app/api/v1/collectibles/cards/route";
import * as collectible from "@/app/api/v1/collectibles/[collectibleId]/route";
import * as mine from "@/app/api/v1/collectibles/route";

// Collectibles: the card catalog, the caller's collection, one collectible with its owner history.
export const routes = {
  "/api/v1/collectibles": mine,
  "/api/v1/collectibles/cards": cards,
  "/api/v1/collectibles/{collectibleId}": collectible,
};

export const internalRoutes = {};
