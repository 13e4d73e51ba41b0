import { z } from "zod";
import { DomainError, sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

// Removed in contract 1.0.0: answers 410 to everyone, so old clients learn it is gone rather than that they failed.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Buy a pack (removed)",
      description:
        'Removed: always 410 GONE, whoever calls and whatever the pack, with the route that replaces it in `details` and a `Link: </api/v1/packs/{id}/purchases>; rel="successor-version"` header. Packs are bought with POST /api/v1/packs/{packId}/purchases (wallet, Idempotency-Key) and opened with POST /api/v1/packs/purchases/{purchaseId}/open.',
      tags: ["Economy"],
      auth: "public",
      database: false,
      params: z.strictObject({ id: z.string().meta({ description: "Any pack id: the answer is the same." }) }),
      deprecated: { since: "2026-01-01", successor: "/api/v1/packs/{id}/purchases" },
      response: z.never(),
      openapi: { successResponses: {} },
      errors: [sharedErrors.GONE],
    },
    async ({ params }) => {
      const successor = `/api/v1/packs/${encodeURIComponent(params.id)}/purchases`;
      throw new DomainError(sharedErrors.GONE, `This route was removed: buy packs with POST ${successor} (with an Idempotency-Key header).`, [
        { path: "successor", message: `POST ${successor}` },
      ]);
    },
  ),
});
