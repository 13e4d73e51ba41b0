import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { CATCH_UP_DAYS, EVENT_RETENTION_DAYS, reconcilePayments, WINDOW_DAYS } from "@/lib/features/payments/reconciliation";

const run = z
  .object({
    runs: z.array(
      z.object({
        id: z.string(),
        provider: z.string(),
        status: z.enum(["ok", "differences", "failed"]),
        checked: z.number().int(),
        discrepancies: z.number().int(),
      }),
    ),
    eventsDeleted: z.number().int().meta({ description: "Provider events deleted past their retention." }),
  })
  .meta({ id: "PaymentsReconciliationRun" });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Reconcile payments with the providers (cron)",
      description:
        "Called daily by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; anything else answers 401. " +
        `One run at a time: a run started while another is under way (a transaction-scoped advisory lock) does nothing and answers \`runs: []\`. ` +
        `For each configured provider, compares its transactions of the last ${WINDOW_DAYS} days (after missed runs, from the day before the provider's last run that read it, at most ${CATCH_UP_DAYS} days back) with the purchases credited here: Stripe's paid charges (the stripe library); the App Store's notification history and, one by one, the credits it did not name (the App Store Server API through Apple's library; needs APPLE_IAP_API_KEY, _KEY_ID and _ISSUER_ID); Google Play's voided purchases and the orders credited here (orders.batchGet). ` +
        "Differences: a payment not credited (not_credited; Google Play cannot list orders, so not there), a credit without a payment (not_paid), refunds that differ (refund_differs), a dispute not applied (dispute_missed, Stripe); differences younger than PAYMENTS_RECONCILE_SETTLE_MINUTES are left to a later run. " +
        "Each provider's run and its differences are recorded in one transaction and shown at /admin/payments; a provider that cannot be read records a failed run; a provider not configured has no run. " +
        `Then deletes the provider events (what makes a re-delivered webhook a duplicate) older than ${EVENT_RETENTION_DAYS} days, past every provider's retries, except claw-backs still held for their credit.`,
      tags: ["Cron"],
      auth: "cron",
      response: run,
    },
    () => reconcilePayments(db),
  ),
});
