import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, errorOf, fan, newUser, withBareProductionServer } from "../helpers";

// In-app purchases on Android (lib/features/payments/google-play.ts) against the Google Play stand-in (tests/setup/server-env/
// google-play.ts): the purchase read from the Play Developer API with the service account's token, credited once per
// order whichever of the app's call and the Pub/Sub notification comes first, then acknowledged and consumed;
// refusals naming why; the push's OIDC token verified; voided purchases clawing back (also before the credit).

type Auth = Record<string, string>;
const play = () => inject("fixtures")["google-play"] as { url: string; packageName: string; audience: string; pushServiceAccount: string };
const PRODUCT = { id: "coins_500", playId: "coins_500", coins: 50_000 };
const WEBHOOK = "/api/webhooks/google-play";

async function standIn(method: string, path: string, json?: unknown) {
  const res = await fetch(`${play().url}${path}`, {
    method,
    headers: json ? { "content-type": "application/json" } : {},
    body: json ? JSON.stringify(json) : undefined,
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  return res.json();
}
type Purchase = {
  purchaseToken: string;
  orderId: string;
  acknowledgeCalls: number;
  consumeCalls: number;
  acknowledgementState: number;
  consumptionState: number;
};
/** A purchase as Play records it (defaults: PRODUCT, paid, a real purchase). */
const purchase = (o: Record<string, unknown>): Promise<Purchase> => standIn("POST", "/__control/purchases", { productId: PRODUCT.playId, ...o });
const redeem = (auth: Auth, purchaseToken: string, productId = PRODUCT.playId) =>
  api("POST", "/api/v1/wallet/iap/google", { headers: auth, json: { productId, purchaseToken } });
/** A Real-time Developer Notification pushed by the stand-in as Pub/Sub does (answers the webhook's status and body). */
async function notify(notification: Record<string, unknown>, messageId: string = randomUUID()) {
  const r = (await standIn("POST", "/__control/notify", { endpoint: `${baseUrl}${WEBHOOK}`, notification, messageId })) as { status: number; body: string };
  return { status: r.status, data: JSON.parse(r.body).data };
}
const bought = (p: Purchase) => ({ oneTimeProductNotification: { version: "1.0", notificationType: 1, purchaseToken: p.purchaseToken, sku: PRODUCT.playId } });
const voided = (p: Purchase) => ({ voidedPurchaseNotification: { purchaseToken: p.purchaseToken, orderId: p.orderId, productType: 2, refundType: 1 } });
const balance = async (auth: Auth) => (await api("GET", "/api/v1/wallet", { headers: auth })).body.data.wallets[0];
const topups = async (auth: Auth) => (await api("GET", "/api/v1/wallet/topups", { headers: auth })).body.data.topups;

describe("Google Play purchases", () => {
  it("credit once per order under concurrent app calls and notifications, then acknowledge and consume it", async () => {
    const f = await fan();
    const p = await purchase({ obfuscatedExternalAccountId: f.id });
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => redeem(f.auth, p.purchaseToken)),
      ...Array.from({ length: 4 }, () => notify(bought(p))),
    ]);
    const calls = results.slice(0, 6) as Awaited<ReturnType<typeof redeem>>[];
    for (const r of calls) expect(r.status, r.text).toBe(200);
    const pushes = results.slice(6) as Awaited<ReturnType<typeof notify>>[];
    for (const r of pushes) expect(r.status).toBe(200);
    const answered = calls.map((r) => r.body.data.topup);
    expect(new Set(answered.map((t) => t.id)).size).toBe(1);
    expect(answered[0]).toMatchObject({
      provider: "google_play",
      productId: PRODUCT.id,
      coins: PRODUCT.coins,
      state: "credited",
      amount: 499,
      currency: "usd",
    });
    expect(pushes.filter((r) => r.data.outcome === "credited").length).toBeLessThanOrEqual(1);
    expect((await balance(f.auth)).balance).toBe(PRODUCT.coins);
    expect((await topups(f.auth)).map((t: { id: string }) => t.id)).toEqual([answered[0].id]);
    const after = (await standIn("GET", `/__control/purchases/${encodeURIComponent(p.purchaseToken)}`)) as Purchase;
    expect(after.acknowledgeCalls).toBeGreaterThanOrEqual(1);
    expect(after.consumeCalls).toBeGreaterThanOrEqual(1);
    expect([after.acknowledgementState, after.consumptionState]).toEqual([1, 1]);
    // A later retry of the app's call answers the same top-up.
    expect((await redeem(f.auth, p.purchaseToken)).body.data.topup.id).toBe(answered[0].id);
  });

  it("credit a purchase made while trading is restricted or deletion is pending, flagged with the eligibility code, once", async () => {
    const [restricted, deleting] = await Promise.all([fan(), fan()]);
    const sanction = { userId: restricted.id, kind: "trading", hours: 24, reason: "Test" };
    expect((await api("POST", "/api/admin/moderation/sanctions", { headers: newUser({ admin: true }).auth, json: sanction })).status).toBe(201);
    expect((await api("POST", "/api/v1/me/deletion", { headers: deleting.auth, json: { confirm: true } })).status).toBe(202);
    for (const [f, flag] of [
      [restricted, "TRADING_RESTRICTED"],
      [deleting, "ACCOUNT_DELETION_PENDING"],
    ] as const) {
      const p = await purchase({ obfuscatedExternalAccountId: f.id });
      const [first, second, pushed] = await Promise.all([redeem(f.auth, p.purchaseToken), redeem(f.auth, p.purchaseToken), notify(bought(p))]);
      expect([first.status, second.status, pushed.status]).toEqual([200, 200, 200]);
      expect(first.body.data.topup).toMatchObject({ state: "credited", coins: PRODUCT.coins, flag });
      expect((await balance(f.auth)).balance).toBe(PRODUCT.coins);
      expect((await topups(f.auth)).map((t: { flag: string | null }) => t.flag)).toEqual([flag]);
    }
  });

  it("refuse another fan's, a test, a canceled, a pending purchase, an unknown product and a token Play does not know, crediting nothing", async () => {
    const [f, other] = await Promise.all([fan(), fan()]);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ obfuscatedExternalAccountId: other.id }, 403, "RECEIPT_OTHER_USER"],
      [{}, 403, "RECEIPT_OTHER_USER"],
      [{ obfuscatedExternalAccountId: f.id, purchaseType: 0 }, 422, "RECEIPT_OTHER_ENVIRONMENT"],
      [{ obfuscatedExternalAccountId: f.id, purchaseState: 1 }, 409, "RECEIPT_REVOKED"],
      [{ obfuscatedExternalAccountId: f.id, purchaseState: 2 }, 409, "RECEIPT_PENDING"],
      [{ obfuscatedExternalAccountId: f.id, packageName: "com.example.other" }, 422, "RECEIPT_INVALID"],
    ];
    for (const [o, status, code] of cases) {
      const p = await purchase(o);
      const res = await redeem(f.auth, p.purchaseToken);
      expect(res.status, `${code}: ${res.text}`).toBe(status);
      expect(errorOf(res).code).toBe(code);
    }
    const mine = await purchase({ obfuscatedExternalAccountId: f.id });
    const unknown = await redeem(f.auth, mine.purchaseToken, "coins_unknown");
    expect([unknown.status, errorOf(unknown).code]).toEqual([422, "UNKNOWN_PRODUCT"]);
    const invalid = await redeem(f.auth, "not-a-token-play-knows");
    expect([invalid.status, errorOf(invalid).code]).toEqual([422, "RECEIPT_INVALID"]);
    expect((await api("POST", "/api/v1/wallet/iap/google", { headers: f.auth, json: { productId: PRODUCT.playId } })).status).toBe(400);
    // A notification for another fan's purchase credits that fan, never the caller; one for an unknown account is ignored.
    expect((await notify(bought(await purchase({ obfuscatedExternalAccountId: randomUUID() })))).data.outcome).toBe("ignored");
    expect((await balance(f.auth)).balance).toBe(0);
    expect(await topups(f.auth)).toEqual([]);
  });

  it("refuse a push without a valid OIDC token for the subscription's service account, processing nothing", async () => {
    const f = await fan();
    const p = await purchase({ obfuscatedExternalAccountId: f.id });
    const data = Buffer.from(JSON.stringify({ version: "1.0", packageName: play().packageName, eventTimeMillis: String(Date.now()), ...bought(p) })).toString(
      "base64",
    );
    const body = { message: { data, messageId: randomUUID() }, subscription: "projects/p/subscriptions/s" };
    const mint = async (o: Record<string, unknown>) =>
      ((await standIn("POST", "/__control/oidc-token", { audience: play().audience, ...o })) as { token: string }).token;
    const bearers = [
      undefined,
      "Bearer not.a.jwt",
      `Bearer ${await mint({ untrusted: true })}`,
      `Bearer ${await mint({ audience: "https://other.example.com/push" })}`,
      `Bearer ${await mint({ email: "someone@example.iam.gserviceaccount.com" })}`,
      `Bearer ${await mint({ emailVerified: false })}`,
      `Bearer ${await mint({ expiresIn: -3600 })}`,
    ];
    for (const authorization of bearers) {
      const res = await api("POST", WEBHOOK, { headers: authorization ? { authorization } : {}, json: body });
      expect(res.status, `${authorization}: ${res.text}`).toBe(401);
      expect(errorOf(res).code).toBe("UNAUTHORIZED");
    }
    expect((await balance(f.auth)).balance).toBe(0);
    // The same push with a good token is processed.
    const ok = await api("POST", WEBHOOK, { headers: { authorization: `Bearer ${await mint({})}` }, json: body });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data).toMatchObject({ received: true, eventId: body.message.messageId, duplicate: false, outcome: "credited" });
    expect((await balance(f.auth)).balance).toBe(PRODUCT.coins);
  });

  it("claw back a voided purchase, also when the void arrives before the credit; a re-delivered message is a duplicate", async () => {
    const f = await fan();
    const p = await purchase({ obfuscatedExternalAccountId: f.id });
    expect((await redeem(f.auth, p.purchaseToken)).status).toBe(200);
    const messageId = randomUUID();
    const refund = await notify(voided(p), messageId);
    expect(refund.status).toBe(200);
    expect(refund.data).toMatchObject({ eventId: messageId, duplicate: false, outcome: "clawed_back" });
    expect((await notify(voided(p), messageId)).data).toMatchObject({ duplicate: true, outcome: "ignored" });
    expect((await balance(f.auth)).balance).toBe(0);
    const [topup] = await topups(f.auth);
    expect(topup).toMatchObject({ state: "refunded", clawedBackCoins: PRODUCT.coins });
    // Play now answers the purchase as canceled: the app's retry is refused, nothing credited again.
    await purchase({ purchaseToken: p.purchaseToken, purchaseState: 1 });
    expect(errorOf(await redeem(f.auth, p.purchaseToken)).code).toBe("RECEIPT_REVOKED");

    // The void first: held, applied when the credit lands.
    const g = await fan();
    const early = await purchase({ obfuscatedExternalAccountId: g.id });
    expect((await notify(voided(early))).data.outcome).toBe("held");
    expect((await notify(bought(early))).data.outcome).toBe("clawed_back");
    expect((await balance(g.auth)).balance).toBe(0);
    expect((await topups(g.auth))[0]).toMatchObject({ state: "refunded", clawedBackCoins: PRODUCT.coins });

    // A purchase notification re-delivered (same Pub/Sub message id) is a duplicate.
    const h = await fan();
    const again = await purchase({ obfuscatedExternalAccountId: h.id });
    const id = randomUUID();
    expect((await notify(bought(again), id)).data).toMatchObject({ duplicate: false, outcome: "credited" });
    expect((await notify(bought(again), id)).data).toMatchObject({ duplicate: true });
    expect((await balance(h.auth)).balance).toBe(PRODUCT.coins);
  });
});

describe("without Google Play configured (production)", () => {
  it("the purchase route and the webhook answer 503 PAYMENTS_UNAVAILABLE", async () => {
    await withBareProductionServer(async (base) => {
      const redeemed = await api("POST", "/api/v1/wallet/iap/google", {
        base,
        headers: newUser().auth,
        json: { productId: PRODUCT.playId, purchaseToken: "t" },
      });
      expect([redeemed.status, errorOf(redeemed).code]).toEqual([503, "PAYMENTS_UNAVAILABLE"]);
      const pushed = await api("POST", WEBHOOK, { base, headers: { authorization: "Bearer x.y.z" }, json: { message: { data: "", messageId: "1" } } });
      expect([pushed.status, errorOf(pushed).code]).toEqual([503, "PAYMENTS_UNAVAILABLE"]);
    });
  }, 60_000);
});
