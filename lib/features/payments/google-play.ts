import { readFileSync } from "node:fs";
import { JWT, OAuth2Client } from "google-auth-library";
import { z } from "zod";
import type { Db } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { env } from "../../env";
import { DomainError, sharedErrors } from "../../kernel/errors";
import type { WebhookVerifier } from "../../http/route";
import { UUID_PATTERN } from "../../kernel/schemas";
import { log } from "../../kernel/log";
import { answerTo, clawBack, creditPurchase, knownFan, redeemedBy, toTopup, type WebhookAnswer } from "./credit-and-clawback";
import { errors as paymentsErrors } from "./errors";
import { googlePlayMode } from "./modes";
import { activeProducts, productByStoreId, purchaseByTxn, type ProductRow } from "./queries";

// Google Play: one-time products (the coin bundles) verified with the Play Developer API (androidpublisher v3
// purchases.products), authorized by a service account through Google's google-auth-library, for one app
// (GOOGLE_PLAY_PACKAGE_NAME); Real-time Developer Notifications arrive as Pub/Sub pushes whose OIDC token the same
// library verifies. Unconfigured: the routes answer 503 PAYMENTS_UNAVAILABLE. Play's purchase carries no price: a
// top-up records the bundle's list price (USD, else its first currency), which is also what a refund claws back.

const PROVIDER = "google_play";
const SCOPE = "https://www.googleapis.com/auth/androidpublisher";
/** The token endpoint google-auth-library always posts to; a service account naming another token_uri is sent there. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

export { googlePlayMode, type GooglePlayMode } from "./modes";

const unavailable = () =>
  new DomainError(paymentsErrors.PAYMENTS_UNAVAILABLE, "In-app purchases on Android are not available on this deployment (Google Play is not configured).");

const serviceAccountSchema = z.looseObject({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.string().url().optional(),
});

let publisher: { key: string; auth: JWT } | undefined;

/** The service account's credentials (GOOGLE_PLAY_SERVICE_ACCOUNT: the JSON key, or the path of its file). */
function publisherAuth(): JWT {
  const e = env();
  if (googlePlayMode() === "unconfigured") throw unavailable();
  const key = e.GOOGLE_PLAY_SERVICE_ACCOUNT!;
  if (publisher?.key !== key) {
    const text = key.trim().startsWith("{") ? key : readFileSync(key.trim(), "utf8");
    const account = serviceAccountSchema.parse(JSON.parse(text));
    const auth = new JWT({ email: account.client_email, key: account.private_key, keyId: account.private_key_id, scopes: [SCOPE] });
    const tokenUri = account.token_uri;
    if (tokenUri && tokenUri !== GOOGLE_TOKEN_URL) {
      auth.transporter.interceptors.request.add({
        resolved: async (o) => {
          if (o.url.toString() === GOOGLE_TOKEN_URL) o.url = new URL(tokenUri);
          return o;
        },
      });
    }
    publisher = { key, auth };
  }
  return publisher.auth;
}

/** androidpublisher v3 ProductPurchase (the fields this service reads). */
const productPurchase = z.looseObject({
  purchaseState: z.number().int().optional(),
  consumptionState: z.number().int().optional(),
  acknowledgementState: z.number().int().optional(),
  purchaseType: z.number().int().optional(),
  orderId: z.string().optional(),
  productId: z.string().optional(),
  obfuscatedExternalAccountId: z.string().optional(),
});
type ProductPurchase = z.infer<typeof productPurchase>;

/**
 * A Play Developer API call for this app: `path` under /androidpublisher/v3/applications/<package>, as the service
 * account. A refused token or an unreachable Play is 502 UPSTREAM_ERROR.
 */
export async function playApi(method: "GET" | "POST", path: string): Promise<Response> {
  const e = env();
  const headers = await publisherAuth()
    .getRequestHeaders()
    .catch((error: Error) => {
      log("warn", { msg: "google play token failed", error: error.message });
      throw new DomainError(sharedErrors.UPSTREAM_ERROR, "Google Play refused this service's credentials; retry later.");
    });
  const url = `${e.GOOGLE_PLAY_API_URL}/androidpublisher/v3/applications/${encodeURIComponent(e.GOOGLE_PLAY_PACKAGE_NAME!)}${path}`;
  if (method === "POST") headers.set("content-type", "application/json");
  try {
    return await fetch(url, { method, headers, body: method === "POST" ? "{}" : undefined, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    log("warn", { msg: "google play unreachable", error: (error as Error).message });
    throw new DomainError(sharedErrors.UPSTREAM_ERROR, "Google Play did not answer; retry later.");
  }
}

const callPublisher = (method: "GET" | "POST", productId: string, token: string, action = "") =>
  playApi(method, `/purchases/products/${encodeURIComponent(productId)}/tokens/${encodeURIComponent(token)}${action}`);

/** purchases.products.get: the purchase a token names, or 422 RECEIPT_INVALID when Play does not know it. */
async function getPurchase(productId: string, token: string): Promise<ProductPurchase> {
  const res = await callPublisher("GET", productId, token);
  if (res.status === 400 || res.status === 404 || res.status === 410) {
    throw new DomainError(paymentsErrors.RECEIPT_INVALID, "Google Play does not know this purchase token for this product and app.");
  }
  if (!res.ok) {
    log("warn", { msg: "google play purchases.products.get failed", status: res.status });
    throw new DomainError(sharedErrors.UPSTREAM_ERROR, `Google Play answered ${res.status}; retry later.`);
  }
  return productPurchase.parse(await res.json());
}

/**
 * Acknowledges and consumes a credited purchase (Play refunds one left unacknowledged for 3 days; consuming lets the
 * fan buy the bundle again). A failure is logged: the next call or notification for the purchase tries again.
 */
async function finish(productId: string, token: string, p: ProductPurchase) {
  const steps = [p.acknowledgementState !== 1 ? ":acknowledge" : "", p.consumptionState !== 1 ? ":consume" : ""].filter(Boolean);
  for (const action of steps) {
    const res = await callPublisher("POST", productId, token, action).catch((error: Error) => error);
    if (res instanceof Error || !res.ok) log("warn", { msg: `google play ${action.slice(1)} failed`, status: res instanceof Error ? res.message : res.status });
  }
}

/** The bundle's list price the top-up records: USD when it has one, else its first currency. */
function listPrice(product: ProductRow) {
  const currency = product.prices.usd !== undefined ? "usd" : Object.keys(product.prices).sort()[0];
  return currency ? { amount: product.prices[currency]!, currency } : { amount: 0, currency: "usd" };
}

const txnOf = (p: ProductPurchase, token: string) => p.orderId || token;
const accountOf = (p: ProductPurchase) =>
  p.obfuscatedExternalAccountId && UUID_PATTERN.test(p.obfuscatedExternalAccountId) ? p.obfuscatedExternalAccountId.toLowerCase() : null;
const isTest = (p: ProductPurchase) => p.purchaseType === 0 && !env().GOOGLE_PLAY_ALLOW_TEST_PURCHASES;

function credited(product: ProductRow, userId: string, p: ProductPurchase, token: string) {
  return { id: uuidv7(), txnId: txnOf(p, token), userId, productId: product.id, coins: product.coins, ...listPrice(product) };
}

/**
 * POST /api/v1/wallet/iap/google: verifies a Play purchase the app sends, credits it once per order whichever of this
 * call and the Pub/Sub notification comes first, acknowledges and consumes it, and answers the top-up. The app must
 * have set the purchase's obfuscated account id to the fan's user id.
 */
export async function redeemGooglePurchase(db: Db, userId: string, productId: string, purchaseToken: string) {
  if (googlePlayMode() === "unconfigured") throw unavailable();
  const product = await productByStoreId(db, PROVIDER, productId);
  if (!product) throw new DomainError(paymentsErrors.UNKNOWN_PRODUCT, `The Google Play product ${productId} is not a coin bundle on sale here.`);
  const p = await getPurchase(productId, purchaseToken);
  if (isTest(p))
    throw new DomainError(paymentsErrors.RECEIPT_OTHER_ENVIRONMENT, "This is a test purchase (a license tester's); this deployment takes real purchases only.");
  if (accountOf(p) !== userId) throw new DomainError(paymentsErrors.RECEIPT_OTHER_USER, "This purchase was made for another account.");
  if (p.purchaseState === 1) throw new DomainError(paymentsErrors.RECEIPT_REVOKED, "Google Play canceled or refunded this purchase.");
  if (p.purchaseState !== 0) throw new DomainError(paymentsErrors.RECEIPT_PENDING, "This purchase is pending: its payment has not completed yet.");
  const c = credited(product, userId, p, purchaseToken);
  await creditPurchase(db, { provider: PROVIDER, eventId: `purchase:${c.txnId}`, type: "purchase", ...c });
  const row = await redeemedBy(db, PROVIDER, c.txnId, userId, "This purchase was made for another account.");
  await finish(productId, purchaseToken, p);
  return { topup: toTopup(row) };
}

// Real-time Developer Notifications -----------------------------------------------------------------------------------

let pushVerifier: { key: string; client: OAuth2Client } | undefined;

function pushClient(): OAuth2Client {
  const e = env();
  if (googlePlayMode() === "unconfigured" || !e.GOOGLE_PLAY_PUSH_AUDIENCE || !e.GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT) {
    throw new DomainError(paymentsErrors.PAYMENTS_UNAVAILABLE, "Google Play notifications are not configured on this deployment.");
  }
  if (pushVerifier?.key !== e.GOOGLE_PLAY_PUSH_CERTS_URL) {
    pushVerifier = {
      key: e.GOOGLE_PLAY_PUSH_CERTS_URL,
      client: new OAuth2Client({ endpoints: { oauth2FederatedSignonPemCertsUrl: e.GOOGLE_PLAY_PUSH_CERTS_URL } }),
    };
  }
  return pushVerifier.client;
}

const pushEnvelope = z.looseObject({
  message: z.looseObject({ data: z.string().default(""), messageId: z.string().min(1).max(200) }),
  subscription: z.string().optional(),
});

const developerNotification = z.looseObject({
  packageName: z.string(),
  oneTimeProductNotification: z.looseObject({ notificationType: z.number().int(), purchaseToken: z.string().min(1), sku: z.string().min(1) }).optional(),
  voidedPurchaseNotification: z
    .looseObject({ purchaseToken: z.string().min(1), orderId: z.string().optional(), productType: z.number().int().optional() })
    .optional(),
});

const unauthorized = (why: string) => new DomainError(sharedErrors.UNAUTHORIZED, why);

/**
 * The Google Play webhook's auth (route option `webhook.verifier`): the Pub/Sub push's OIDC token (Authorization:
 * Bearer), verified by google-auth-library against Google's certificates for GOOGLE_PLAY_PUSH_AUDIENCE, made for the
 * subscription's service account. Answers the Pub/Sub message id.
 */
export const pubSubOidc: WebhookVerifier = {
  scheme: {
    name: "pubSubOidc",
    header: "Authorization",
    description:
      "`Bearer <OIDC token>`: the ID token Pub/Sub signs for the push subscription (Google's certificates; audience GOOGLE_PLAY_PUSH_AUDIENCE; email GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT, verified), checked by google-auth-library.",
  },
  errors: [sharedErrors.UNAUTHORIZED, sharedErrors.VALIDATION_ERROR, sharedErrors.UPSTREAM_ERROR, paymentsErrors.PAYMENTS_UNAVAILABLE],
  async verify(headers, rawBody) {
    const client = pushClient();
    const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
    if (!match) throw unauthorized("Missing Authorization: Bearer <Pub/Sub OIDC token>.");
    let payload;
    try {
      payload = (await client.verifyIdToken({ idToken: match[1]!, audience: env().GOOGLE_PLAY_PUSH_AUDIENCE! })).getPayload();
    } catch (error) {
      const message = (error as Error).message;
      if (message.startsWith("Failed to retrieve verification certificates")) {
        log("warn", { msg: "google certificates unavailable", error: message });
        throw new DomainError(sharedErrors.UPSTREAM_ERROR, "Google's signing certificates could not be read; retry later.");
      }
      throw unauthorized(`Invalid Pub/Sub OIDC token: ${message.split(":")[0]!.slice(0, 120)}.`);
    }
    if (!payload || payload.email !== env().GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT || payload.email_verified !== true) {
      throw unauthorized("The OIDC token was not made for this subscription's service account.");
    }
    let envelope;
    try {
      envelope = pushEnvelope.parse(JSON.parse(rawBody.toString("utf8")));
    } catch {
      throw new DomainError(sharedErrors.VALIDATION_ERROR, "The body is not a Pub/Sub push message (message.data, message.messageId).");
    }
    return envelope.message.messageId;
  },
};

/** The bundle a purchase token was bought for, by asking Play for each of ours (a void that came before its credit). */
async function productOfToken(db: Db, token: string) {
  for (const product of await activeProductsWithPlayId(db)) {
    const res = await callPublisher("GET", product.googlePlayProductId!, token);
    if (res.ok) return product;
    if (![400, 404, 410].includes(res.status)) throw new DomainError(sharedErrors.UPSTREAM_ERROR, `Google Play answered ${res.status}; retry later.`);
  }
  return undefined;
}
const activeProductsWithPlayId = async (db: Db) => (await activeProducts(db)).filter((p) => p.googlePlayProductId);

/**
 * POST /api/webhooks/google-play: a Real-time Developer Notification, processed once per Pub/Sub message id.
 * ONE_TIME_PRODUCT_PURCHASED credits (as the app's call would, to the fan the obfuscated account id names); a voided
 * one-time purchase (refund, chargeback) claws the coins back, held until the credit when it has not landed yet;
 * anything else is acknowledged and ignored.
 */
export async function handleGooglePlayPush(db: Db, messageId: string, rawBody: Buffer): Promise<WebhookAnswer> {
  const answer = answerTo(messageId);
  const ignored = answer({ duplicate: false, outcome: "ignored" });
  const { message } = pushEnvelope.parse(JSON.parse(rawBody.toString("utf8")));
  let parsed;
  try {
    parsed = developerNotification.safeParse(JSON.parse(Buffer.from(message.data, "base64").toString("utf8")));
  } catch {
    return ignored;
  }
  if (!parsed.success || parsed.data.packageName !== env().GOOGLE_PLAY_PACKAGE_NAME) return ignored;
  const { oneTimeProductNotification: bought, voidedPurchaseNotification: voided } = parsed.data;
  const base = { provider: PROVIDER, eventId: messageId };
  if (bought?.notificationType === 1) {
    const product = await productByStoreId(db, PROVIDER, bought.sku);
    if (!product) return ignored;
    const p = await getPurchase(bought.sku, bought.purchaseToken).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === paymentsErrors.RECEIPT_INVALID.code) return undefined;
      throw error;
    });
    if (!p || p.purchaseState !== 0 || isTest(p)) return ignored;
    // An account id that names no fan of ours (another build of the app, say): acknowledged, never credited.
    const userId = accountOf(p);
    const fan = await knownFan(db, userId);
    if (!fan) return ignored;
    const outcome = await creditPurchase(db, { ...base, type: "ONE_TIME_PRODUCT_PURCHASED", ...credited(product, fan.id, p, bought.purchaseToken) });
    await finish(bought.sku, bought.purchaseToken, p);
    return answer(outcome);
  }
  if (voided && voided.productType !== 1) {
    const txnId = voided.orderId || voided.purchaseToken;
    const row = await purchaseByTxn(db, PROVIDER, txnId);
    const product = row ? undefined : await productOfToken(db, voided.purchaseToken);
    if (!row && !product) return ignored;
    const cumulative = row ? row.amount : listPrice(product!).amount;
    return answer(await clawBack(db, { ...base, type: "VOIDED_PURCHASE", txnId, kind: "refund", cumulative }));
  }
  return ignored;
}
