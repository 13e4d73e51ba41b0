import * as health from "@/app/api/health/route";
import * as ready from "@/app/api/health/ready/route";
import * as accessibility from "@/app/api/accessibility/route";

// Platform: liveness, readiness and the accessibility matrix.
export const routes = {
  "/api/health": health,
  "/api/health/ready": ready,
  "/api/accessibility": accessibility,
};

export const internalRoutes = {};
