import { z } from "zod";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { readBodyBytes } from "@/lib/http/body";
import { DomainError } from "@/lib/http/errors";
import { methods } from "@/lib/http/methods";
import { issuesToDetails, route } from "@/lib/http/route";
import { claimDelivery, verifyWebhook, WEBHOOK_BODY_LIMIT, WEBHOOK_TOLERANCE_S } from "@/lib/sync/auth";
import { syncRunSchema } from "@/lib/sync/schemas";
import { runSync } from "@/lib/sync/service";

const payload = z.looseObject({
  event: z.string().max(100).optional(),
  scope: z.enum(["leagues", "teams", "all"]).default("all"),
});

const envelope = (data: unknown) => ({ type: "object", required: ["success", "data"], properties: { success: { const: true }, data } });
const runRef = { $ref: "#/components/schemas/SyncRun" };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "League/team sync notification (provider webhook)",
      description: [
        "The feed provider calls this when leagues or teams changed; the service then pulls the feed and syncs (trigger `webhook`).",
        "",
        "**Signature.** Header `X-Signature: t=<unix seconds>,v1=<hex>` where `<hex>` is HMAC-SHA256, keyed with the shared secret `LEAGUES_SYNC_WEBHOOK_SECRET`, of the exact bytes `<t>.<raw request body>`. Several `v1=` entries may be sent (secret rotation); one must match. It is compared in constant time over the raw body, so sign exactly the bytes you send.",
        `**Freshness and replays.** \`t\` must be within ±${WEBHOOK_TOLERANCE_S} s of the server clock. A delivery is identified by its signature: the first request with a given signature runs the sync and answers 201 with the run; the same request again (a retry or a replay) runs nothing and answers 200 \`{ duplicate: true }\`. To trigger another sync, sign again with a new \`t\`.`,
        "",
        `**Body.** JSON object, at most ${WEBHOOK_BODY_LIMIT} bytes (413 past it): optional \`scope\` (\`leagues\`, \`teams\` or \`all\`, the default) and \`event\` (free text); other fields are ignored. An empty body means \`{}\`.`,
        "",
        "A missing, malformed, wrong or stale signature (or no secret configured on the server) answers 401. A sync that fails is recorded and answered with `status: failed`.",
      ].join("\n"),
      tags: ["Webhooks"],
      auth: "public",
      status: 201,
      response: syncRunSchema,
      errors: ["UNAUTHORIZED", "VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"],
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
        successResponses: {
          "201": { description: "Sync run (succeeded or failed)", content: { "application/json": { schema: envelope(runRef) } } },
          "200": {
            description: "Delivery already received: nothing was run",
            content: { "application/json": { schema: envelope({ type: "object", required: ["duplicate"], properties: { duplicate: { const: true } } }) } },
          },
        },
      },
    },
    async ({ req }) => {
      const declared = req.headers.get("content-length");
      const tooLarge = () => new DomainError("PAYLOAD_TOO_LARGE", `The request body is larger than ${WEBHOOK_BODY_LIMIT} bytes.`);
      if (declared && Number(declared) > WEBHOOK_BODY_LIMIT) throw tooLarge();
      const raw = await readBodyBytes(req, WEBHOOK_BODY_LIMIT, tooLarge);
      const deliveryId = verifyWebhook(env().LEAGUES_SYNC_WEBHOOK_SECRET, req.headers.get("x-signature"), raw);

      let json: unknown = {};
      if (raw.toString("utf8").trim() !== "") {
        try {
          json = JSON.parse(raw.toString("utf8"));
        } catch {
          throw new DomainError("VALIDATION_ERROR", "The request body is not valid JSON.", [{ path: "body", message: "Malformed JSON" }]);
        }
      }
      const parsed = payload.safeParse(json);
      if (!parsed.success) throw new DomainError("VALIDATION_ERROR", "Invalid request body.", issuesToDetails(parsed.error, "body"));

      if (!(await claimDelivery(db, deliveryId))) {
        return Response.json({ success: true, data: { duplicate: true } }, { status: 200 });
      }
      return runSync(db, { scope: parsed.data.scope, trigger: "webhook" });
    },
  ),
});
