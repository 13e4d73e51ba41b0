import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, errorOf, newUser, userIdOf, withBareProductionServer } from "../helpers";

// Money in (lib/features/payments) against the Stripe stand-in (tests/setup/server-env/payments.ts): bundles, card top-ups
// through Checkout, the signed webhook (one credit under concurrent deliveries, tampered and replayed signatures),
// claw-backs after spending (debt, freeze, settlement) and before the credit (held).

type Auth = Record<string, string>;
const fixture = () => inject("fixtures").payments as { url: string; webhookSecret: string };

async function standIn(method: string, path: string, json?: unknown) {
  const res = await fetch(`${fixture().url}${path}`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return res.json() as Promise<any>;
}

const sign = (payload: string, timestamp?: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret: fixture().webhookSecret, timestamp });
const deliver = (payload: string, signature: string | null = sign(payload)) =>
  api("POST", "/api/webhooks/stripe", {
    headers: { "content-type": "application/json", ...(signature ? { "stripe-signature": signature } : {}) },
    body: payload,
  });

async function startTopup(auth: Auth, productId = "coins_500", key: string = randomUUID()) {
  const res = await api("POST", "/api/v1/wallet/topups", { headers: { ...auth, "idempotency-key": key }, json: { productId } });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { topup: any; checkoutUrl: string };
}
/** Pays a checkout at the stand-in; with deliver false, answers the signed event without sending it. */
const pay = (checkoutUrl: string, deliverIt = true) => standIn("POST", `/checkout/${checkoutUrl.split("/").pop()}/pay`, { deliver: deliverIt });
const wallet = async (auth: Auth) => (await api("GET", "/api/v1/wallet", { headers: auth })).body.data.wallets[0];
const topupOf = async (auth: Auth, id: string) => (await api("GET", `/api/v1/wallet/topups/${id}`, { headers: auth })).body.data.topup;
/** A trading path that calls assertMayTrade first: buying a listing (unknown here, so 404 when not frozen). */
const tryBuy = (auth: Auth) => api("POST", `/api/v1/marketplace/listings/${randomUUID()}/buy`, { headers: { ...auth, "idempotency-key": randomUUID() } });

beforeAll(async () => {
  await standIn("POST", "/__control/endpoint", { url: `${baseUrl}/api/webhooks/stripe` });
});

describe("coin bundles", () => {
  it("lists the seeded bundles with their prices and store product ids, signed in or not", async () => {
    const res = await api("GET", "/api/v1/wallet/products");
    expect(res.status).toBe(200);
    expect(res.body.data.products).toHaveLength(3);
    expect(res.body.data.products[0]).toEqual({
      id: "coins_500",
      name: "500 coins",
      coins: 50_000,
      prices: [
        { currency: "eur", amount: 499 },
        { currency: "gbp", amount: 449 },
        { currency: "usd", amount: 499 },
      ],
      appStoreProductId: "com.example.fanapp.coins500",
      googlePlayProductId: "coins_500",
    });
    expect((await api("GET", "/api/v1/wallet/products", { headers: newUser().auth })).status).toBe(200);
  });
});

describe("starting a top-up", () => {
  it("creates one pending top-up and checkout per Idempotency-Key", async () => {
    const u = newUser();
    const key = randomUUID();
    const [a, b] = await Promise.all([
      api("POST", "/api/v1/wallet/topups", { headers: { ...u.auth, "idempotency-key": key }, json: { productId: "coins_1200", currency: "eur" } }),
      api("POST", "/api/v1/wallet/topups", { headers: { ...u.auth, "idempotency-key": key }, json: { productId: "coins_1200", currency: "eur" } }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data).toEqual(b.body.data);
    expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")].sort()).toEqual([null, "true"]);
    const { topup, checkoutUrl } = a.body.data;
    expect(topup).toMatchObject({
      provider: "stripe",
      productId: "coins_1200",
      state: "pending",
      coins: 120_000,
      amount: 999,
      currency: "eur",
      clawedBackCoins: 0,
    });
    expect(checkoutUrl).toMatch(new RegExp(`^${fixture().url}/checkout/cs_test_`));
    expect(topup.checkoutUrl).toBe(checkoutUrl);
    const list = await api("GET", "/api/v1/wallet/topups", { headers: u.auth });
    expect(list.body.data.topups).toEqual([topup]);
    const reused = await api("POST", "/api/v1/wallet/topups", { headers: { ...u.auth, "idempotency-key": key }, json: { productId: "coins_500" } });
    expect(reused.status).toBe(409);
    expect(errorOf(reused).code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("refuses a missing key, an unknown bundle, a currency not offered, and no session", async () => {
    const u = newUser();
    const noKey = await api("POST", "/api/v1/wallet/topups", { headers: u.auth, json: { productId: "coins_500" } });
    expect(noKey.status).toBe(400);
    expect(errorOf(noKey).details).toEqual([{ path: "headers.idempotency-key", message: "required" }]);
    const unknown = await api("POST", "/api/v1/wallet/topups", { headers: { ...u.auth, "idempotency-key": randomUUID() }, json: { productId: "coins_9" } });
    expect(unknown.status).toBe(404);
    const yen = await api("POST", "/api/v1/wallet/topups", {
      headers: { ...u.auth, "idempotency-key": randomUUID() },
      json: { productId: "coins_500", currency: "jpy" },
    });
    expect(yen.status).toBe(422);
    expect(errorOf(yen).code).toBe("CURRENCY_NOT_OFFERED");
    expect((await api("POST", "/api/v1/wallet/topups", { json: { productId: "coins_500" } })).status).toBe(401);
    expect((await api("GET", `/api/v1/wallet/topups/${randomUUID()}`, { headers: u.auth })).status).toBe(404);
  });

  it("refuses a fan restricted from trading or whose deletion is pending with eligibility's code, storing nothing", async () => {
    const restricted = newUser();
    await api("GET", "/api/user", { headers: restricted.auth });
    const sanction = { userId: await userIdOf(restricted.sub), kind: "trading", hours: 24, reason: "Test" };
    expect((await api("POST", "/api/admin/moderation/sanctions", { headers: newUser({ admin: true }).auth, json: sanction })).status).toBe(201);
    const deleting = newUser();
    expect((await api("POST", "/api/v1/me/deletion", { headers: deleting.auth, json: { confirm: true } })).status).toBe(202);
    for (const [u, status, code] of [
      [restricted, 403, "TRADING_RESTRICTED"],
      [deleting, 409, "ACCOUNT_DELETION_PENDING"],
    ] as const) {
      const eligibility = (await api("GET", "/api/v1/me/eligibility", { headers: u.auth })).body.data.coins;
      expect(eligibility).toMatchObject({ allowed: false, reasons: [{ code }] });
      const res = await api("POST", "/api/v1/wallet/topups", { headers: { ...u.auth, "idempotency-key": randomUUID() }, json: { productId: "coins_500" } });
      expect([res.status, errorOf(res).code]).toEqual([status, code]);
      expect((await api("GET", "/api/v1/wallet/topups", { headers: u.auth })).body.data.topups).toEqual([]);
    }
    // Once the deletion is cancelled, the fan may buy again.
    expect((await api("DELETE", "/api/v1/me/deletion", { headers: deleting.auth })).status).toBe(200);
    await startTopup(deleting.auth);
  });

  it("answers 502 and stores nothing when Stripe fails; the same key works afterwards", async () => {
    const u = newUser();
    const key = randomUUID();
    await standIn("POST", "/__control/fail", { on: true });
    try {
      const failed = await api("POST", "/api/v1/wallet/topups", { headers: { ...u.auth, "idempotency-key": key }, json: { productId: "coins_500" } });
      expect(failed.status).toBe(502);
      expect(errorOf(failed).code).toBe("PAYMENTS_PROVIDER_ERROR");
    } finally {
      await standIn("POST", "/__control/fail", { on: false });
    }
    expect((await api("GET", "/api/v1/wallet/topups", { headers: u.auth })).body.data.topups).toEqual([]);
    await startTopup(u.auth, "coins_500", key);
  });
});

describe("the Stripe webhook", () => {
  it("credits a paid checkout end to end (the stand-in's Pay sends the signed event)", async () => {
    const u = newUser();
    const { topup, checkoutUrl } = await startTopup(u.auth);
    const paid = await pay(checkoutUrl);
    expect(paid.delivery).toEqual({
      status: 200,
      body: { success: true, data: { received: true, eventId: paid.event.id, duplicate: false, outcome: "credited" } },
    });
    expect(await wallet(u.auth)).toMatchObject({ balance: 50_000, debt: 0, frozen: false });
    const after = await topupOf(u.auth, topup.id);
    expect(after).toMatchObject({ state: "credited", checkoutUrl: null, amount: 499, currency: "usd" });
    expect(after.creditedAt).not.toBeNull();
    const ledger = (await api("GET", "/api/v1/wallet/transactions", { headers: u.auth })).body.data.transactions;
    expect(ledger).toEqual([
      expect.objectContaining({ amount: 50_000, balanceAfter: 50_000, reason: "topup", referenceType: "coin_purchase", referenceId: topup.id }),
    ]);
    // The browser page of the stand-in renders (a newcomer pays there under npm run dev).
    const page = await fetch(checkoutUrl);
    expect(await page.text()).toContain("Stripe stand-in checkout");
  });

  it("credits once under 20 concurrent deliveries of one event, alongside other events", async () => {
    const u = newUser();
    const topups = [await startTopup(u.auth), await startTopup(u.auth, "coins_1200"), await startTopup(u.auth, "coins_2600")];
    const events = await Promise.all(topups.map((t) => pay(t.checkoutUrl, false)));
    const deliveries = [
      ...Array.from({ length: 20 }, () => events[0].payload as string),
      ...Array.from({ length: 5 }, () => events[1].payload as string),
      ...Array.from({ length: 5 }, () => events[2].payload as string),
    ];
    const answers = await Promise.all(deliveries.map((p) => deliver(p)));
    expect(answers.map((a) => a.status)).toEqual(deliveries.map(() => 200));
    const outcomes = answers.map((a) => a.body.data);
    expect(outcomes.filter((o) => o.outcome === "credited")).toHaveLength(3);
    expect(outcomes.filter((o) => o.duplicate)).toHaveLength(27);
    expect(await wallet(u.auth)).toMatchObject({ balance: 50_000 + 120_000 + 260_000, debt: 0 });
    const ledger = (await api("GET", "/api/v1/wallet/transactions?limit=100", { headers: u.auth })).body.data.transactions;
    expect(ledger.filter((t: any) => t.reason === "topup")).toHaveLength(3);
    // A second, distinct event about the same payment (async_payment_succeeded) credits nothing more.
    const again = JSON.parse(events[0].payload);
    const other = JSON.stringify({ ...again, id: `evt_${randomUUID()}`, type: "checkout.session.async_payment_succeeded" });
    expect((await deliver(other)).body.data).toMatchObject({ duplicate: false, outcome: "ignored" });
    expect((await wallet(u.auth)).balance).toBe(430_000);
    const staff = newUser({ admin: true });
    const invariant = await api("GET", "/api/admin/wallets/invariant", { headers: staff.auth });
    expect(invariant.body.data).toMatchObject({ ok: true, mismatches: [], paymentMismatches: [] });
  });

  it("refuses tampered, replayed and unsigned events with 400 and processes nothing", async () => {
    const u = newUser();
    const { topup, checkoutUrl } = await startTopup(u.auth);
    const { payload } = await pay(checkoutUrl, false);
    const signature = sign(payload);
    const tampered = payload.replace('"coins":"50000"', '"coins":"5000000"');
    expect(tampered).not.toBe(payload);
    const bad = await deliver(tampered, signature);
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe("INVALID_SIGNATURE");
    const replayed = await deliver(payload, sign(payload, Math.floor(Date.now() / 1000) - 600));
    expect(replayed.status).toBe(400);
    expect(errorOf(replayed).code).toBe("INVALID_SIGNATURE");
    const unsigned = await deliver(payload, null);
    expect(unsigned.status).toBe(400);
    expect(errorOf(unsigned).message).toBe("Missing Stripe-Signature header.");
    const wrongSecret = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_not_ours" });
    expect((await deliver(payload, wrongSecret)).status).toBe(400);
    expect((await topupOf(u.auth, topup.id)).state).toBe("pending");
    expect((await wallet(u.auth)).balance).toBe(0);
    // The genuine event, then its re-delivery.
    expect((await deliver(payload, signature)).body.data).toMatchObject({ duplicate: false, outcome: "credited" });
    expect((await deliver(payload)).body.data).toMatchObject({ duplicate: true, outcome: "ignored" });
    expect((await wallet(u.auth)).balance).toBe(50_000);
  });

  it("a correctly signed body that is not an event is 400 INVALID_EVENT; an event without a usable data.object is ignored (200)", async () => {
    // Signed with the endpoint's secret but nothing Stripe sends: these were 500s (Stripe retries a 500 for days).
    for (const payload of [
      "{}",
      "[]",
      "null",
      "42",
      '"evt"',
      "not json",
      '{"id":1,"type":"charge.refunded"}',
      '{"id":"evt_x"}',
      '{"type":"charge.refunded"}',
      '{"id":"evt_\\u0000","type":"x"}',
    ]) {
      const res = await deliver(payload);
      expect([payload, res.status, errorOf(res)?.code]).toEqual([payload, 400, "INVALID_EVENT"]);
    }
    // Events (an id and a type) with no data, or no or a foreign data.object: acknowledged once, ignored.
    for (const type of [
      "checkout.session.completed",
      "checkout.session.expired",
      "charge.refunded",
      "charge.dispute.created",
      "charge.dispute.closed",
      "customer.created",
    ]) {
      for (const data of [undefined, null, [], {}, { object: null }, { object: [] }, { object: "x" }]) {
        const payload = JSON.stringify({ id: `evt_${randomUUID()}`, type, ...(data === undefined ? {} : { data }) });
        const res = await deliver(payload);
        expect([payload, res.status, res.body?.data?.outcome]).toEqual([payload, 200, "ignored"]);
        expect((await deliver(payload)).body.data).toMatchObject({ duplicate: true, outcome: "ignored" });
      }
    }
  });

  it("claws back a refund after spending: debt, frozen trading, then settlement by the next top-up", async () => {
    const u = newUser();
    const first = await startTopup(u.auth);
    const paid = await pay(first.checkoutUrl);
    expect(paid.delivery.status).toBe(200);
    const pack = await api("POST", "/api/v1/packs/pk_gameday/purchases", { headers: { ...u.auth, "idempotency-key": randomUUID() } });
    expect(pack.status).toBe(201);
    expect((await wallet(u.auth)).balance).toBe(25_000);

    const refund = await standIn("POST", "/__control/refund", { paymentIntent: paid.event.data.object.payment_intent });
    expect(refund.delivery).toMatchObject({ status: 200, body: { data: { duplicate: false, outcome: "clawed_back" } } });
    expect(await wallet(u.auth)).toMatchObject({ balance: 0, debt: 25_000, frozen: true });
    expect(await topupOf(u.auth, first.topup.id)).toMatchObject({ state: "refunded", clawedBackCoins: 50_000 });
    // The pack and its cards stay with the buyer.
    expect((await api("GET", `/api/v1/packs/purchases/${pack.body.data.purchase.id}`, { headers: u.auth })).status).toBe(200);

    const frozen = await tryBuy(u.auth);
    expect(frozen.status).toBe(409);
    expect(errorOf(frozen)).toMatchObject({ code: "WALLET_FROZEN", details: [{ path: "debt", message: "25000" }] });
    const listing = await api("POST", "/api/v1/marketplace/listings", { headers: u.auth, json: { collectibleId: randomUUID(), kind: "fixed", price: 100 } });
    expect(errorOf(listing).code).toBe("WALLET_FROZEN");
    // A re-delivery of the refund changes nothing.
    expect((await deliver(refund.payload)).body.data).toMatchObject({ duplicate: true });
    expect((await wallet(u.auth)).debt).toBe(25_000);

    const second = await startTopup(u.auth, "coins_1200");
    expect((await pay(second.checkoutUrl)).delivery.body.data.outcome).toBe("credited");
    expect(await wallet(u.auth)).toMatchObject({ balance: 95_000, debt: 0, frozen: false });
    const ledger = (await api("GET", "/api/v1/wallet/transactions", { headers: u.auth })).body.data.transactions;
    const topupRow = ledger.find((t: any) => t.reason === "topup" && t.amount === 120_000);
    expect(topupRow).toMatchObject({ balanceAfter: 120_000, referenceId: second.topup.id });
    // The debt is settled from that credit (ids in one millisecond are not ordered: found by what they are).
    expect(ledger).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ amount: -25_000, balanceAfter: 95_000, reason: "clawback", referenceType: "debt", referenceId: topupRow.id }),
        expect.objectContaining({ amount: -25_000, balanceAfter: 0, reason: "clawback", referenceType: "coin_purchase", referenceId: first.topup.id }),
      ]),
    );
    expect((await tryBuy(u.auth)).status).toBe(404);
  });

  it("returns a won dispute's coins (settling the debt first), keeps a refund's share, and ignores a lost one", async () => {
    const u = newUser();
    const { topup, checkoutUrl } = await startTopup(u.auth);
    const pi = (await pay(checkoutUrl)).event.data.object.payment_intent;
    // Spend half, refund a fifth of the money, dispute the rest: 10,000 coins taken for the refund, the rest owed.
    expect((await api("POST", "/api/v1/packs/pk_gameday/purchases", { headers: { ...u.auth, "idempotency-key": randomUUID() } })).status).toBe(201);
    expect((await standIn("POST", "/__control/refund", { paymentIntent: pi, amount: 100 })).delivery.body.data.outcome).toBe("clawed_back");
    expect((await standIn("POST", "/__control/dispute", { paymentIntent: pi, amount: 399 })).delivery.body.data.outcome).toBe("clawed_back");
    expect(await wallet(u.auth)).toMatchObject({ balance: 0, debt: 25_000, frozen: true });
    expect(await topupOf(u.auth, topup.id)).toMatchObject({ state: "disputed", clawedBackCoins: 50_000 });

    const lost = await standIn("POST", "/__control/dispute-close", { paymentIntent: pi, status: "lost" });
    expect(lost.delivery.body.data).toMatchObject({ duplicate: false, outcome: "ignored" });
    expect(await wallet(u.auth)).toMatchObject({ balance: 0, debt: 25_000 });

    const won = await standIn("POST", "/__control/dispute-close", { paymentIntent: pi, status: "won" });
    expect(won.delivery.body.data).toMatchObject({ duplicate: false, outcome: "restored" });
    // 40,000 coins back (the refund's 10,021 stay taken: ceil(50,000 × 100 / 499)): 25,000 settle the debt, the rest is spendable.
    const kept = Math.ceil((50_000 * 100) / 499);
    expect(await wallet(u.auth)).toMatchObject({ balance: 50_000 - kept - 25_000, debt: 0, frozen: false });
    expect(await topupOf(u.auth, topup.id)).toMatchObject({ state: "refunded", clawedBackCoins: kept });
    // Delivered again, or won twice: nothing more.
    expect((await deliver(won.payload)).body.data).toMatchObject({ duplicate: true });
    expect((await standIn("POST", "/__control/dispute-close", { paymentIntent: pi, status: "won" })).delivery.body.data.outcome).toBe("ignored");
    expect((await wallet(u.auth)).balance).toBe(50_000 - kept - 25_000);
  });

  it("holds a refund that arrives before the credit and applies it when the credit lands", async () => {
    const u = newUser();
    const { topup, checkoutUrl } = await startTopup(u.auth);
    const completed = await pay(checkoutUrl, false);
    const pi = completed.event.data.object.payment_intent;
    const refund = await standIn("POST", "/__control/refund", { paymentIntent: pi, amount: 250 });
    expect(refund.delivery.body.data).toMatchObject({ duplicate: false, outcome: "held" });
    expect(await topupOf(u.auth, topup.id)).toMatchObject({ state: "pending", clawedBackCoins: 0 });
    expect((await deliver(completed.payload)).body.data).toMatchObject({ duplicate: false, outcome: "clawed_back" });
    // Half the money back: half the coins (rounded up) clawed back.
    expect(await topupOf(u.auth, topup.id)).toMatchObject({ state: "refunded", clawedBackCoins: 25_051 });
    expect(await wallet(u.auth)).toMatchObject({ balance: 50_000 - 25_051, debt: 0, frozen: false });
    // A dispute of the rest takes the remaining coins.
    const dispute = await standIn("POST", "/__control/dispute", { paymentIntent: pi, amount: 249 });
    expect(dispute.delivery.body.data.outcome).toBe("clawed_back");
    expect(await topupOf(u.auth, topup.id)).toMatchObject({ state: "disputed", clawedBackCoins: 50_000 });
    expect(await wallet(u.auth)).toMatchObject({ balance: 0, debt: 0 });
  });

  it("credits a checkout paid after the fan asked for deletion, flagging the top-up; other top-ups stay unflagged", async () => {
    const u = newUser();
    const started = await startTopup(u.auth);
    expect((await api("POST", "/api/v1/me/deletion", { headers: u.auth, json: { confirm: true } })).status).toBe(202);
    expect((await pay(started.checkoutUrl)).delivery.body.data.outcome).toBe("credited");
    expect(await topupOf(u.auth, started.topup.id)).toMatchObject({ state: "credited", flag: "ACCOUNT_DELETION_PENDING" });
    expect((await wallet(u.auth)).balance).toBe(50_000);
    const other = newUser();
    const paid = await startTopup(other.auth);
    await pay(paid.checkoutUrl);
    expect(await topupOf(other.auth, paid.topup.id)).toMatchObject({ state: "credited", flag: null });
  });

  it("marks an expired checkout failed", async () => {
    const u = newUser();
    const { topup, checkoutUrl } = await startTopup(u.auth);
    const expired = await standIn("POST", `/checkout/${checkoutUrl.split("/").pop()}/expire`, {});
    expect(expired.delivery.body.data.outcome).toBe("failed");
    expect(await topupOf(u.auth, topup.id)).toMatchObject({ state: "failed", checkoutUrl: null });
  });

  it("acknowledges event types it does not act on, once", async () => {
    const payload = JSON.stringify({ id: `evt_${randomUUID()}`, object: "event", type: "customer.created", data: { object: { id: "cus_1" } } });
    expect((await deliver(payload)).body.data).toEqual({ received: true, eventId: JSON.parse(payload).id, duplicate: false, outcome: "ignored" });
    expect((await deliver(payload)).body.data.duplicate).toBe(true);
  });

  it("readiness names Stripe as configured", async () => {
    const ready = await api("GET", "/api/health/ready");
    expect(ready.body.data.providers).toEqual({
      stripe: { status: "configured", mode: "standin" },
      appStore: { status: "configured", mode: "sandbox" },
      googlePlay: { status: "configured", mode: "standin" },
    });
  });
});

describe("without Stripe configured (production)", () => {
  it("card top-ups and the webhook answer 503 PAYMENTS_UNAVAILABLE, bundles still list, and readiness says so", async () => {
    await withBareProductionServer(async (base) => {
      const u = newUser();
      const topup = await api("POST", "/api/v1/wallet/topups", {
        base,
        headers: { ...u.auth, "idempotency-key": randomUUID() },
        json: { productId: "coins_500" },
      });
      expect(topup.status).toBe(503);
      expect(errorOf(topup).code).toBe("PAYMENTS_UNAVAILABLE");
      const payload = JSON.stringify({ id: "evt_x", object: "event", type: "customer.created", data: { object: {} } });
      const hook = await api("POST", "/api/webhooks/stripe", {
        base,
        headers: { "content-type": "application/json", "stripe-signature": sign(payload) },
        body: payload,
      });
      expect(hook.status).toBe(503);
      expect(errorOf(hook).code).toBe("PAYMENTS_UNAVAILABLE");
      expect((await api("GET", "/api/v1/wallet/products", { base })).status).toBe(200);
      for (const [path, headers, json] of [
        ["/api/v1/wallet/iap/apple", u.auth, { signedTransaction: "x" }],
        ["/api/webhooks/app-store", {}, { signedPayload: "x" }],
      ] as const) {
        const res = await api("POST", path, { base, headers, json });
        expect([res.status, errorOf(res).code], path).toEqual([503, "PAYMENTS_UNAVAILABLE"]);
      }
      const ready = await api("GET", "/api/health/ready", { base });
      expect(ready.status).toBe(200);
      expect(ready.body.data.providers).toEqual({
        stripe: { status: "unavailable", mode: "unconfigured" },
        appStore: { status: "unavailable", mode: "unconfigured" },
        googlePlay: { status: "unavailable", mode: "unconfigured" },
      });
    });
  }, 60_000);
});
