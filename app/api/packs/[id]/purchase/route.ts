import { z } from "zod";
import { DomainError } from "@/lib/http/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

// Removed in contract 1.0.0: answers 410 to everyone, so old clients learn it is gone rather than that they failed.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Buy a pack (removed)",
      description:
        "Removed: always 410 GONE, whoever calls and whatever the pack. Packs are no longer bought through this route; the collectibles economy's routes replace it.",
      tags: ["Economy"],
      auth: "public",
      database: false,
      params: z.strictObject({ id: z.string().meta({ description: "Any pack id: the answer is the same." }) }),
      deprecated: { since: "2026-01-01" },
      response: z.never(),
      openapi: { successResponses: {} },
      errors: ["GONE"],
    },
    async () => {
      throw new DomainError("GONE", "This route was removed: packs are no longer bought through PUT /api/packs/{id}/purchase.");
    },
  ),
});
