import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { reconcilePayments, WINDOW_DAYS } from "@/lib/payments/reconciliation";

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
  })
  .meta({ id: "PaymentsReconciliationRun" });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Reconcile payments with the providers (cron)",
      description:
        "Called daily by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; anything else answers 401. " +
        `Lists Stripe's paid charges of the last ${WINDOW_DAYS} days with the stripe library and compares them with the purchases here: a payment not credited (not_credited), a credit without a payment (not_paid), refunded amounts that differ (refund_differs), a dispute not applied (dispute_missed); differences younger than PAYMENTS_RECONCILE_SETTLE_MINUTES are left to a later run. ` +
        "Each run and its differences are recorded in one transaction and shown at /admin/payments; a provider that cannot be read records a failed run. Stripe not configured: no run. The App Store's and Google Play's transaction histories are not read yet.",
      tags: ["Cron"],
      auth: "cron",
      response: run,
    },
    () => reconcilePayments(db),
  ),
});
