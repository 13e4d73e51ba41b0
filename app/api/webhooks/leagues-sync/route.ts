import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { SIGNATURE_TOLERANCE_S } from "@/lib/http/machine-auth";
import { syncRunSchema } from "@/lib/features/sync/schemas";
import { claimDelivery, runSync, WEBHOOK_BODY_LIMIT } from "@/lib/features/sync/service";

const payload = z.looseObject({
  event: z.string().max(100).optional(),
  scope: z.enum(["leagues", "teams", "all"]).default("all"),
});

const duplicate = z.object({ duplicate: z.literal(true) });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "League/team sync notification (provider webhook)",
      description: [
        "The feed provider calls this when leagues or teams changed; the service then pulls the feed and syncs (trigger `webhook`).",
        "",
        "**Signature.** Header `X-Signature: t=<unix seconds>,v1=<hex>` where `<hex>` is HMAC-SHA256, keyed with the shared secret `LEAGUES_SYNC_WEBHOOK_SECRET`, of the exact bytes `<t>.<raw request body>`. Several `v1=` entries may be sent (secret rotation); one must match. It is compared in constant time over the raw body, so sign exactly the bytes you send.",
        `**Freshness and replays.** \`t\` must be within ±${SIGNATURE_TOLERANCE_S} s of the server clock. A delivery is identified by its signature: the first request with a given signature runs the sync and answers 201 with the run; the same request again (a retry or a replay) runs nothing and answers 200 \`{ duplicate: true }\`. To trigger another sync, sign again with a new \`t\`.`,
        "",
        `**Body.** JSON object, at most ${WEBHOOK_BODY_LIMIT} bytes (413 past it): optional \`scope\` (\`leagues\`, \`teams\` or \`all\`, the default) and \`event\` (free text); other fields are ignored. An empty body means \`{}\`.`,
        "",
        "A missing, malformed, wrong or stale signature (or no secret configured on the server) answers 401. A sync that fails is recorded and answered with `status: failed`.",
      ].join("\n"),
      tags: ["Webhooks"],
      auth: "webhook",
      // Public contract, unlike a webhook by default: the provider builds its deliveries from this operation.
      internal: false,
      webhook: { secret: "LEAGUES_SYNC_WEBHOOK_SECRET" },
      body: payload,
      bodyRequired: false,
      bodyLimit: WEBHOOK_BODY_LIMIT,
      status: 201,
      response: syncRunSchema,
      responses: { 200: { description: "Delivery already received: nothing was run", schema: duplicate } },
      openapi: {
        requestBody: {
          required: false,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { scope: { type: "string", enum: ["leagues", "teams", "all"], default: "all" }, event: { type: "string", maxLength: 100 } },
              },
            },
          },
        },
      },
    },
    async ({ body, delivery }) => {
      if (!(await claimDelivery(db, delivery.id))) return reply({ duplicate: true as const }, { status: 200 });
      return runSync(db, { scope: body?.scope ?? "all", trigger: "webhook" });
    },
  ),
});
