import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { consumableTransaction, signAsAppStore } from "../../dev/standins/app-store";
import { api, baseUrl, db, fan } from "../helpers";

// The daily reconciliation (GET /api/cron/payments-reconciliation) against the stand-ins of Stripe, the App Store
// Server API and the Play Developer API: a payment whose webhook never arrived, a refund the webhook never told, a
// dispute missed and a credit with no payment are each reported once, the purchases that agree are not; each
// provider's run is recorded for the console.

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
/** The kinds of difference one provider's run of a fresh reconciliation found, by transaction id. */
async function differences(provider: string) {
  const res = await reconcile();
  expect(res.status, res.text).toBe(200);
  const run = res.body.data.runs.find((r: { provider: string }) => r.provider === provider);
  expect(run).toMatchObject({ provider, status: "differences" });
  const found = await db().paymentDiscrepancy.findMany({ where: { reconciliationId: run.id } });
  return { kinds: new Map(found.map((d) => [d.providerTxnId, d.kind])), found };
}

/**
 * A paid Stripe checkout that Stripe never had, credited here through the signed webhook (the reconciliation's
 * `not_paid`): answers its payment intent id.
 */
async function creditGhostCheckout(userId: string, webhookSecret: string): Promise<string> {
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
        metadata: { topupId: randomUUID(), userId, productId: "coins_500", coins: "50000" },
      },
    },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
  const credited = await api("POST", "/api/webhooks/stripe", {
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
  expect(credited.body.data.outcome).toBe("credited");
  return ghost;
}

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
    const ghost = await creditGhostCheckout(f.id, stripeFixture().webhookSecret);

    const { kinds: byTxn, found } = await differences("stripe");
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

  it("reports the App Store's differences: from its notification history, and one by one for credits it did not name", async () => {
    const apple = inject("fixtures")["app-store"] as { apiUrl: string; leafKey: string; x5c: string };
    const control = async (path: string, json: unknown) => {
      const res = await fetch(`${apple.apiUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) });
      expect(res.status, path).toBe(200);
      return res.json() as Promise<{ transactionId: string; signedTransaction: string; delivered?: { status: number } }>;
    };
    const f = await fan();
    const webhook = `${baseUrl}/api/webhooks/app-store`;
    const buy = (o: Record<string, unknown>) => control("/__control/transactions", { appAccountToken: f.id, productId: "com.example.fanapp.coins500", ...o });
    const redeem = (signedTransaction: string) => api("POST", "/api/v1/wallet/iap/apple", { headers: f.auth, json: { signedTransaction } });

    const agreeing = await buy({ notify: true, endpoint: webhook });
    expect(agreeing.delivered?.status).toBe(200);
    const neverCredited = await buy({ notify: true });
    const refundedThere = await buy({ notify: true, endpoint: webhook });
    await control(`/__control/transactions/${refundedThere.transactionId}/refund`, {});
    // Credited from the app's call alone (no notification in the history): Apple is asked for it by id and agrees.
    const fromApp = await buy({});
    expect((await redeem(fromApp.signedTransaction)).status).toBe(200);
    // Refunded with the notification delivered: agrees.
    const refundedBoth = await buy({ notify: true, endpoint: webhook });
    await control(`/__control/transactions/${refundedBoth.transactionId}/refund`, { endpoint: webhook });
    // Signed with the trusted chain but never sold by Apple: credited here, unknown there.
    const sold = consumableTransaction("com.example.fans", { productId: "com.example.fanapp.coins500", appAccountToken: f.id });
    const ghostId = sold.transactionId;
    const ghost = await signAsAppStore({ rootPem: "", leafKey: apple.leafKey, x5c: apple.x5c.split(",") }, sold);
    expect((await redeem(ghost)).status).toBe(200);

    const { kinds } = await differences("app_store");
    expect(kinds.get(neverCredited.transactionId)).toBe("not_credited");
    expect(kinds.get(refundedThere.transactionId)).toBe("refund_differs");
    expect(kinds.get(ghostId)).toBe("not_paid");
    for (const t of [agreeing, fromApp, refundedBoth]) expect(kinds.has(t.transactionId), t.transactionId).toBe(false);
  });

  it("reports Google Play's differences: orders refunded or unknown there, voided purchases not clawed back", async () => {
    const play = inject("fixtures")["google-play"] as { url: string };
    const control = async (path: string, json: unknown) => {
      const res = await fetch(`${play.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) });
      expect(res.status, path).toBe(200);
      return res.json() as Promise<{ purchaseToken: string; orderId: string }>;
    };
    const f = await fan();
    const bought = async (o: Record<string, unknown> = {}) => {
      const p = await control("/__control/purchases", { productId: "coins_500", obfuscatedExternalAccountId: f.id, ...o });
      const res = await api("POST", "/api/v1/wallet/iap/google", { headers: f.auth, json: { productId: "coins_500", purchaseToken: p.purchaseToken } });
      expect(res.status, res.text).toBe(200);
      return p;
    };
    const agreeing = await bought();
    // Voided (refunded and revoked) with no notification: listed by voidedpurchases, not clawed back here.
    const voidedThere = await bought();
    await control(`/__control/purchases/${voidedThere.purchaseToken}/void`, {});
    // Refunded without revoking: Play's order says REFUNDED, no void is listed.
    const refundedThere = await bought();
    await control(`/__control/purchases/${refundedThere.purchaseToken}/void`, { revoke: false });
    // Voided and told by a notification: clawed back here, agrees.
    const voidedBoth = await bought();
    await control(`/__control/purchases/${voidedBoth.purchaseToken}/void`, {});
    const told = await fetch(`${play.url}/__control/notify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        endpoint: `${baseUrl}/api/webhooks/google-play`,
        notification: { voidedPurchaseNotification: { purchaseToken: voidedBoth.purchaseToken, orderId: voidedBoth.orderId, productType: 2, refundType: 1 } },
      }),
    });
    expect(((await told.json()) as { status: number }).status).toBe(200);
    // Credited here for an order Play never had (the stand-in's record changed to another order id after the credit).
    const ghost = await bought();
    await control("/__control/purchases", { purchaseToken: ghost.purchaseToken, orderId: `GPA.0000-0000-0000-${Date.now() % 100000}` });

    const { kinds } = await differences("google_play");
    expect(kinds.get(voidedThere.orderId)).toBe("refund_differs");
    expect(kinds.get(refundedThere.orderId)).toBe("refund_differs");
    expect(kinds.get(ghost.orderId)).toBe("not_paid");
    for (const p of [agreeing, voidedBoth]) expect(kinds.has(p.orderId), p.orderId).toBe(false);
  });

  it("deletes provider events past their 30 days, keeping recent ones and claw-backs still held", async () => {
    const tag = randomUUID();
    const old = new Date(Date.now() - 31 * 86_400_000);
    const event = (id: string, state: string, receivedAt: Date) => ({ provider: "stripe", eventId: `evt_${id}_${tag}`, type: "test", state, receivedAt });
    await db().paymentEvent.createMany({
      data: [event("old", "applied", old), event("oldheld", "held", old), event("recent", "applied", new Date(Date.now() - 29 * 86_400_000))],
    });
    const res = await reconcile();
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.eventsDeleted).toBeGreaterThanOrEqual(1);
    const left = await db().paymentEvent.findMany({ where: { eventId: { endsWith: tag } }, select: { eventId: true } });
    expect(left.map((e) => e.eventId.split("_")[1]).sort()).toEqual(["oldheld", "recent"]);
  });

  // Vercel Cron may fire twice or skip slots (docs/decisions/0074-crons-on-vercel-scheduler.md). These cases live here,
  // not with the other crons', so that no other file's reconciliation lands between their steps (one run at a time).
  it("twice at once: one run per provider between the two, the other answers none", async () => {
    const runs = await Promise.all([reconcile(), reconcile()]);
    for (const r of runs) expect(r.status, r.text).toBe(200);
    const providers = runs.flatMap((r) => (r.body.data.runs as { provider: string }[]).map((x) => x.provider));
    expect(providers.length).toBeGreaterThan(0);
    expect(new Set(providers).size).toBe(providers.length);
  });

  it("after missed runs: a credit from before the last three days is checked by the next run", async () => {
    const f = await fan();
    // A credit Stripe never had (through the signed webhook), from five days ago.
    const ghost = await creditGhostCheckout(f.id, stripeFixture().webhookSecret);
    await db().$executeRaw`UPDATE coin_purchases SET credited_at = now() - interval '5 days' WHERE provider_txn_id = ${ghost}`;
    // The last run that read Stripe was six days ago: the daily runs since never came.
    expect((await reconcile()).status).toBe(200);
    await db().$executeRaw`UPDATE payment_reconciliations SET started_at = started_at - interval '6 days' WHERE provider = 'stripe'`;

    const res = await reconcile();
    expect(res.status, res.text).toBe(200);
    const run = res.body.data.runs.find((r: { provider: string }) => r.provider === "stripe");
    const found = await db().paymentDiscrepancy.findMany({ where: { reconciliationId: run.id, providerTxnId: ghost } });
    expect(found.map((d) => d.kind)).toEqual(["not_paid"]);
  });
});
