import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as marketErrors } from "@/lib/core/market-data/errors";
import { alertBody, alertCreated, alertPage, alertsQuery, ALERTS_PER_HOUR, MAX_ALERTS } from "@/lib/core/market-data/schemas";
import { createAlert, listAlerts } from "@/lib/core/market-data/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My price alerts",
      description: "The caller's price alerts, newest first. Keyset: `limit` 1..100 (default 50).",
      tags: ["Marketplace"],
      auth: "bearer",
      query: alertsQuery,
      response: alertPage,
    },
    ({ user, query }) => listAlerts(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Create a price alert",
      description:
        `A notification (PRICE_ALERT) when a copy of \`cardId\` (optionally with a serial from \`serialMin\` to \`serialMax\`) is listed at a fixed price at or below \`maxPrice\` (minor units of COIN), or repriced down to it: once per alert and listing, never for the caller's own listings or a seller blocked either way, at most ${ALERTS_PER_HOUR} an hour per fan (the rest of the hour's matches are dropped). ` +
        `At most ${MAX_ALERTS} alerts a fan (409 ALERT_LIMIT). Unknown card: 404.`,
      tags: ["Marketplace"],
      auth: "bearer",
      body: alertBody,
      rateLimit: "write",
      status: 201,
      response: alertCreated,
      errors: [sharedErrors.NOT_FOUND, marketErrors.ALERT_LIMIT],
    },
    ({ user, body }) => createAlert(db, user.id, body),
  ),
});
