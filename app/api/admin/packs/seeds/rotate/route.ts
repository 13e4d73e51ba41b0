import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { seed } from "@/lib/features/packs/schemas";
import { rotateSeed } from "@/lib/features/packs/service";
import { z } from "zod";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Rotate the draw seed (staff)",
      description:
        "Retires the seed in use, revealing it in GET /api/v1/packs/seeds, and puts a new one in use (its hash published at once). Openings in progress finish with the seed they read first.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      bodyRequired: false,
      rateLimit: "write",
      response: z.object({ retired: seed.nullable(), active: seed }).meta({ id: "DrawSeedRotation" }),
    },
    ({ user, requestId }) => rotateSeed(db, apiActor(user, requestId)),
  ),
});
