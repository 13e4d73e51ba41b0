import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, db, fan } from "../helpers";

// The daily reconciliation (GET /api/cron/payments-reconciliation) against the Stripe stand-in: a payment whose
// webhook never arrived, a refund the webhook never told, a dispute missed and a credit with no payment are each
// reported once, the purchases that agree are not; the run is recorded for the console.

type Auth = Record<string, string>;
const stripeFixture = () => inject("fixtures").payments as { url: string; webhookSecret: string };
const { cronSecret } = inject("fixtures").sync as { cronSecret: string };

async function standIn(method: string, path: string, json?: unknown) {
  const res = await fetch(`${stripeFixture().url}${path}`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return res.json() as Promise<any>;
}
async function paidTopup(auth: Auth, deliver: boolean) {
  const res = await api("POST", "/api/v1/wallet/topups", { headers: { ...auth, "idempotency-key": randomUUID() }, json: { productId: "coins_500" } });
  expect(res.status, res.text).toBe(201);
  const paid = await standIn("POST", `/checkout/${(res.body.data.checkoutUrl as string).split("/").pop()}/pay`, { deliver });
  return paid.event.data.object.payment_intent as string;
}
const reconcile = () => api("GET", "/api/cron/payments-reconciliation", { headers: { authorization: `Bearer ${cronSecret}` } });

beforeAll(async () => {
  await standIn("POST", "/__control/endpoint", { url: `${baseUrl}/api/webhooks/stripe` });
});

describe("payments reconciliation", () => {
  it("reports each difference with Stripe once and leaves agreeing purchases alone", async () => {
    const f = await fan();
    const agreeing = await paidTopup(f.auth, true);
    const neverCredited = await paidTopup(f.auth, false);
    const refundedThere = await paidTopup(f.auth, true);
    await standIn("POST", "/__control/refund", { paymentIntent: refundedThere, deliver: false });
    const disputedThere = await paidTopup(f.auth, true);
    await standIn("POST", "/__control/dispute", { paymentIntent: disputedThere, deliver: false });
    // A paid checkout Stripe never had: credited here (through the signed webhook), unknown there.
    const ghost = `pi_ghost_${randomUUID().replace(/-/g, "")}`;
    const payload = JSON.stringify({
      id: `evt_ghost_${randomUUID().replace(/-/g, "")}`,
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: `cs_ghost_${randomUUID().replace(/-/g, "")}`,
          object: "checkout.session",
          payment_status: "paid",
          payment_intent: ghost,
          amount_total: 499,
          currency: "usd",
          metadata: { topupId: randomUUID(), userId: f.id, productId: "coins_500", coins: "50000" },
        },
      },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripeFixture().webhookSecret });
    const credited = await api("POST", "/api/webhooks/stripe", {
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
    expect(credited.body.data.outcome).toBe("credited");

    const res = await reconcile();
    expect(res.status, res.text).toBe(200);
    const [run] = res.body.data.runs;
    expect(run).toMatchObject({ provider: "stripe", status: "differences" });
    const found = await db().paymentDiscrepancy.findMany({ where: { reconciliationId: run.id } });
    const byTxn = new Map(found.map((d) => [d.providerTxnId, d.kind]));
    expect(byTxn.get(neverCredited)).toBe("not_credited");
    expect(byTxn.get(refundedThere)).toBe("refund_differs");
    expect(byTxn.get(disputedThere)).toBe("dispute_missed");
    expect(byTxn.get(ghost)).toBe("not_paid");
    expect(byTxn.has(agreeing)).toBe(false);
    expect(found.filter((d) => d.providerTxnId === neverCredited)).toHaveLength(1);

    // Without the secret: 401, nothing recorded.
    const before = await db().paymentReconciliation.count();
    expect((await api("GET", "/api/cron/payments-reconciliation")).status).toBe(401);
    expect(await db().paymentReconciliation.count()).toBe(before);
  });
});
