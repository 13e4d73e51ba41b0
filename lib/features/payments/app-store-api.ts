import { readFileSync } from "node:fs";
import { APIException, AppStoreServerAPIClient, Environment, NotificationTypeV2, type JWSTransactionDecodedPayload } from "@apple/app-store-server-library";
import { env } from "../../env";
import { verifyAppleNotification, verifyAppleTransaction } from "./app-store";
import { minorUnits } from "./credit-and-clawback";
import { allProducts } from "./console-queries";
import { appStoreMode } from "./modes";
import { creditedPurchases } from "./queries";
import type { ProviderReconciliation, Settled } from "./provider";

// The App Store Server API through Apple's library, for the reconciliation: the notification history (what Apple
// charged and refunded in the window) and, one by one, the transactions it did not name. It needs an API key of its
// own (APPLE_IAP_API_KEY, _KEY_ID, _ISSUER_ID from App Store Connect's Keys page); without one the App Store is left
// out of the reconciliation. APPLE_IAP_API_URL points it at the stand-in (dev/standins/app-store.ts).

const APPLE_API = { Production: "https://api.storekit.apple.com", Sandbox: "https://api.storekit-sandbox.apple.com" };

/** Apple's client, sending its requests to APPLE_IAP_API_URL (Apple's own by default) with a timeout. */
class AppStoreApi extends AppStoreServerAPIClient {
  constructor(
    key: string,
    keyId: string,
    issuerId: string,
    bundleId: string,
    environment: Environment,
    private readonly base: string,
  ) {
    super(key, keyId, issuerId, bundleId, environment);
  }

  protected override async makeFetchRequest(
    path: string,
    query: URLSearchParams,
    method: string,
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ) {
    const res = await fetch(`${this.base}${path}?${query}`, {
      method,
      body: typeof body === "string" || !body ? body : new Uint8Array(body),
      headers,
      signal: AbortSignal.timeout(10_000),
    });
    return res as never;
  }
}

let client: { key: string; api: AppStoreApi } | undefined;

const apiConfigured = () => {
  const e = env();
  return appStoreMode() !== "unconfigured" && !!e.APPLE_IAP_API_KEY && !!e.APPLE_IAP_API_KEY_ID && !!e.APPLE_IAP_API_ISSUER_ID;
};

function appStoreApi(): AppStoreApi {
  const e = env();
  const base = e.APPLE_IAP_API_URL ?? APPLE_API[e.APPLE_IAP_ENVIRONMENT];
  const key = [e.APPLE_IAP_API_KEY, e.APPLE_IAP_API_KEY_ID, e.APPLE_IAP_API_ISSUER_ID, e.APPLE_IAP_BUNDLE_ID, e.APPLE_IAP_ENVIRONMENT, base].join("\n");
  if (client?.key !== key) {
    const pem = e.APPLE_IAP_API_KEY!.includes("-----BEGIN") ? e.APPLE_IAP_API_KEY! : readFileSync(e.APPLE_IAP_API_KEY!, "utf8");
    const environment = e.APPLE_IAP_ENVIRONMENT === "Production" ? Environment.PRODUCTION : Environment.SANDBOX;
    client = { key, api: new AppStoreApi(pem, e.APPLE_IAP_API_KEY_ID!, e.APPLE_IAP_API_ISSUER_ID!, e.APPLE_IAP_BUNDLE_ID!, environment, base) };
  }
  return client.api;
}

/** Apple's refusal as an error with a message (the library's APIException has none). */
async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (e) {
    if (e instanceof APIException) throw new Error(`App Store Server API ${what}: ${e.httpStatusCode} ${e.apiError ?? ""} ${e.errorMessage ?? ""}`.trim());
    throw e;
  }
}

/** A transaction as Apple has it now, or undefined when Apple does not know it (404). */
async function transactionInfo(api: AppStoreApi, transactionId: string) {
  try {
    const { signedTransactionInfo } = await api.getTransactionInfo(transactionId);
    return signedTransactionInfo ? await verifyAppleTransaction(signedTransactionInfo) : undefined;
  } catch (e) {
    if (e instanceof APIException && e.httpStatusCode === 404) return undefined;
    return call("transaction info", () => Promise.reject(e));
  }
}

const settledOf = (t: JWSTransactionDecodedPayload): Settled => ({
  txnId: t.transactionId!,
  amount: minorUnits(t.price, t.currency),
  refunded: t.revocationDate !== undefined,
  disputed: false,
  created: t.purchaseDate ?? 0,
});

/**
 * The reconciliation's App Store side: the window's notification history (ONE_TIME_CHARGE: a purchase; REFUND,
 * REVOKE: a refund) for the coin bundles, then each purchase credited here that the history did not name, and each
 * refunded purchase older than the window, looked up by its transaction id (unknown to Apple: not paid).
 */
export const appStoreReconciliation: ProviderReconciliation = {
  provider: "app_store",
  configured: apiConfigured,
  async gather(db, since, now) {
    const api = appStoreApi();
    const bundles = new Set((await allProducts(db)).map((p) => p.appStoreProductId));
    const theirs = new Map<string, Settled>();
    const refunded = new Set<string>();
    let page: string | null = null;
    do {
      const history = await call("notification history", () => api.getNotificationHistory(page, { startDate: since.getTime(), endDate: now.getTime() }));
      for (const item of history.notificationHistory ?? []) {
        // Signed by Apple like the webhook's notifications; one that does not verify is not Apple's and is skipped.
        const n = await verifyAppleNotification(item.signedPayload ?? "").catch(() => undefined);
        const t = n?.transaction;
        if (!t?.transactionId || t.type !== "Consumable" || !bundles.has(t.productId ?? "")) continue;
        const type = n!.notification.notificationType;
        if (type === NotificationTypeV2.ONE_TIME_CHARGE) theirs.set(t.transactionId, settledOf(t));
        if (type === NotificationTypeV2.REFUND || type === NotificationTypeV2.REVOKE) refunded.add(t.transactionId);
      }
      page = history.hasMore && history.paginationToken ? history.paginationToken : null;
    } while (page);
    const ours = await creditedPurchases(db, "app_store", since, [...theirs.keys(), ...refunded]);
    for (const id of new Set([...ours.map((o) => o.txnId), ...refunded])) {
      if (theirs.has(id)) continue;
      const t = await transactionInfo(api, id);
      if (t) theirs.set(id, settledOf(t));
    }
    for (const id of refunded) {
      const s = theirs.get(id);
      if (s) s.refunded = true;
    }
    return { theirs: [...theirs.values()], ours };
  },
};
