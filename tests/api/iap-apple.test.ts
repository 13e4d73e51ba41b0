import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { consumableTransaction, signAsAppStore } from "../../dev/standins/app-store";
import { api, db, errorOf, fan, newUser } from "../helpers";

// In-app purchases on iOS (lib/features/payments/app-store.ts) against a chain made for the run (tests/setup/server-env/
// app-store.ts): the signed transaction verified with Apple's library, credited once per transaction whichever of the
// app's call and the notification comes first, refusals naming why, refunds clawing back (also before the credit).

type Auth = Record<string, string>;
const chain = () => inject("fixtures")["app-store"] as { leafKey: string; x5c: string; otherLeafKey: string; otherX5c: string };
const BUNDLE = "com.example.fans";
const PRODUCT = { id: "coins_500", appStoreId: "com.example.fanapp.coins500", coins: 50_000 };

/** A StoreKit 2 transaction as the App Store signs it (defaults: a fresh consumable purchase of PRODUCT). */
const transaction = (o: Record<string, unknown> = {}) => consumableTransaction(BUNDLE, { productId: PRODUCT.appStoreId, ...o });
async function sign(payload: unknown, other = false) {
  const { leafKey, x5c } = other ? { leafKey: chain().otherLeafKey, x5c: chain().otherX5c } : chain();
  return signAsAppStore({ rootPem: "", leafKey, x5c: x5c.split(",") }, payload);
}
const redeem = async (auth: Auth, signed: string) => api("POST", "/api/v1/wallet/iap/apple", { headers: auth, json: { signedTransaction: signed } });
async function notify(type: string, tx: Record<string, unknown>, uuid: string = randomUUID()) {
  const payload = {
    notificationType: type,
    notificationUUID: uuid,
    version: "2.0",
    signedDate: Date.now(),
    data: { bundleId: BUNDLE, environment: "Sandbox", signedTransactionInfo: await sign(tx) },
  };
  return api("POST", "/api/webhooks/app-store", { json: { signedPayload: await sign(payload) } });
}
const balance = async (auth: Auth) => (await api("GET", "/api/v1/wallet", { headers: auth })).body.data.wallets[0];

describe("App Store purchases", () => {
  it("credit once per transaction under concurrent app calls and notifications, and answer the same top-up", async () => {
    const f = await fan();
    const tx = transaction({ appAccountToken: f.id });
    const signed = await sign(tx);
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => redeem(f.auth, signed)),
      ...Array.from({ length: 4 }, () => notify("ONE_TIME_CHARGE", tx)),
    ]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    const topups = results.slice(0, 6).map((r) => r.body.data.topup);
    expect(new Set(topups.map((t) => t.id)).size).toBe(1);
    expect(topups[0]).toMatchObject({ provider: "app_store", productId: PRODUCT.id, coins: PRODUCT.coins, state: "credited", amount: 499, currency: "usd" });
    expect(results.slice(6).filter((r) => r.body.data.outcome === "credited").length).toBeLessThanOrEqual(1);
    expect((await balance(f.auth)).balance).toBe(PRODUCT.coins);
    const listed = await api("GET", "/api/v1/wallet/topups", { headers: f.auth });
    expect(listed.body.data.topups.map((t: { id: string }) => t.id)).toEqual([topups[0].id]);
  });

  it("credit a purchase made while deletion is pending or trading is restricted, flagged with the eligibility code, once", async () => {
    const [deleting, restricted] = await Promise.all([fan(), fan()]);
    expect((await api("POST", "/api/v1/me/deletion", { headers: deleting.auth, json: { confirm: true } })).status).toBe(202);
    const sanction = { userId: restricted.id, kind: "trading", hours: 24, reason: "Test" };
    expect((await api("POST", "/api/admin/moderation/sanctions", { headers: newUser({ admin: true }).auth, json: sanction })).status).toBe(201);
    for (const [f, flag] of [
      [deleting, "ACCOUNT_DELETION_PENDING"],
      [restricted, "TRADING_RESTRICTED"],
    ] as const) {
      const eligibility = (await api("GET", "/api/v1/me/eligibility", { headers: f.auth })).body.data.coins;
      expect(eligibility.reasons.map((r: { code: string }) => r.code)).toContain(flag);
      const tx = transaction({ appAccountToken: f.id });
      const results = await Promise.all([redeem(f.auth, await sign(tx)), redeem(f.auth, await sign(tx)), notify("ONE_TIME_CHARGE", tx)]);
      for (const r of results) expect(r.status, r.text).toBe(200);
      expect(results[0]!.body.data.topup).toMatchObject({ state: "credited", coins: PRODUCT.coins, flag });
      expect((await balance(f.auth)).balance).toBe(PRODUCT.coins);
      const row = await db().coinPurchase.findFirstOrThrow({ where: { userId: f.id } });
      expect(row.flag).toBe(flag);
    }
  });

  it("refuse another fan's, another app's, another environment's, an unknown product's and a forged transaction, crediting nothing", async () => {
    const [f, other] = await Promise.all([fan(), fan()]);
    const cases: [Record<string, unknown>, boolean, number, string][] = [
      [{ appAccountToken: other.id }, false, 403, "RECEIPT_OTHER_USER"],
      [{ appAccountToken: undefined }, false, 403, "RECEIPT_OTHER_USER"],
      [{ appAccountToken: f.id, bundleId: "com.example.other" }, false, 422, "RECEIPT_OTHER_APP"],
      [{ appAccountToken: f.id, environment: "Production" }, false, 422, "RECEIPT_OTHER_ENVIRONMENT"],
      [{ appAccountToken: f.id, productId: "com.example.fanapp.unknown" }, false, 422, "UNKNOWN_PRODUCT"],
      [{ appAccountToken: f.id, type: "Non-Consumable" }, false, 422, "UNKNOWN_PRODUCT"],
      [{ appAccountToken: f.id, revocationDate: Date.now() }, false, 409, "RECEIPT_REVOKED"],
      [{ appAccountToken: f.id }, true, 422, "RECEIPT_INVALID"],
    ];
    for (const [o, forged, status, code] of cases) {
      const res = await redeem(f.auth, await sign(transaction(o), forged));
      expect(res.status, `${code}: ${res.text}`).toBe(status);
      expect(errorOf(res).code).toBe(code);
    }
    // A transaction whose signed content was changed after signing.
    const [h, , s] = (await sign(transaction({ appAccountToken: f.id }))).split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify(transaction({ appAccountToken: f.id, price: 1 }))).toString("base64url")}.${s}`;
    expect(errorOf(await redeem(f.auth, tampered)).code).toBe("RECEIPT_INVALID");
    expect((await redeem(f.auth, "not a jws")).status).toBe(422);
    expect((await api("POST", "/api/v1/wallet/iap/apple", { headers: f.auth, json: {} })).status).toBe(400);
    expect((await balance(f.auth)).balance).toBe(0);
    expect((await api("GET", "/api/v1/wallet/topups", { headers: f.auth })).body.data.topups).toEqual([]);
  });

  it("claw back on REFUND, also when the refund arrives before the credit; a forged notification changes nothing", async () => {
    const f = await fan();
    const tx = transaction({ appAccountToken: f.id });
    expect((await redeem(f.auth, await sign(tx))).status).toBe(200);
    const refund = await notify("REFUND", { ...tx, revocationDate: Date.now(), revocationReason: 0 });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.data.outcome).toBe("clawed_back");
    expect((await balance(f.auth)).balance).toBe(0);
    const [topup] = (await api("GET", "/api/v1/wallet/topups", { headers: f.auth })).body.data.topups;
    expect(topup.state).toBe("refunded");

    // The refund first: held, applied when the credit lands.
    const g = await fan();
    const early = transaction({ appAccountToken: g.id });
    expect((await notify("REFUND", { ...early, revocationDate: Date.now() })).body.data.outcome).toBe("held");
    expect((await notify("ONE_TIME_CHARGE", early)).body.data.outcome).toBe("clawed_back");
    expect((await balance(g.auth)).balance).toBe(0);

    // A notification re-delivered is a duplicate; a forged one is refused.
    const uuid = randomUUID();
    const h = await fan();
    const again = transaction({ appAccountToken: h.id });
    expect((await notify("ONE_TIME_CHARGE", again, uuid)).body.data.outcome).toBe("credited");
    expect((await notify("ONE_TIME_CHARGE", again, uuid)).body.data).toMatchObject({ duplicate: true });
    const forged = await api("POST", "/api/webhooks/app-store", {
      json: {
        signedPayload: await sign(
          {
            notificationType: "REFUND",
            notificationUUID: randomUUID(),
            data: { bundleId: BUNDLE, environment: "Sandbox", signedTransactionInfo: await sign(again, true) },
          },
          true,
        ),
      },
    });
    expect(forged.status).toBe(422);
    expect((await balance(h.auth)).balance).toBe(PRODUCT.coins);
  });
});
