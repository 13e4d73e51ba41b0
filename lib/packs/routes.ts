import * as stock from "@/app/api/admin/packs/[packId]/stock/route";
import * as rotate from "@/app/api/admin/packs/seeds/rotate/route";
import * as odds from "@/app/api/v1/packs/[packId]/odds/[version]/route";
import * as buy from "@/app/api/v1/packs/[packId]/purchases/route";
import * as pack from "@/app/api/v1/packs/[packId]/route";
import * as open from "@/app/api/v1/packs/purchases/[purchaseId]/open/route";
import * as purchase from "@/app/api/v1/packs/purchases/[purchaseId]/route";
import * as purchases from "@/app/api/v1/packs/purchases/route";
import * as catalog from "@/app/api/v1/packs/route";
import * as seeds from "@/app/api/v1/packs/seeds/route";

// Packs: the catalog with published odds, buying, opening (verifiable draws), purchases and the draw seeds.
export const routes = {
  "/api/v1/packs": catalog,
  "/api/v1/packs/{packId}": pack,
  "/api/v1/packs/{packId}/odds/{version}": odds,
  "/api/v1/packs/{packId}/purchases": buy,
  "/api/v1/packs/purchases": purchases,
  "/api/v1/packs/purchases/{purchaseId}": purchase,
  "/api/v1/packs/purchases/{purchaseId}/open": open,
  "/api/v1/packs/seeds": seeds,
};

export const internalRoutes = {
  "/api/admin/packs/seeds/rotate": rotate,
  "/api/admin/packs/{packId}/stock": stock,
};
