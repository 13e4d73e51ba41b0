import { readFileSync } from "node:fs";
import { X509Certificate } from "node:crypto";
import {
  Environment,
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
  type JWSTransactionDecodedPayload,
  type ResponseBodyV2DecodedPayload,
} from "@apple/app-store-server-library";
import type { Db } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { env } from "../../env";
import { DomainError } from "../../kernel/errors";
import { UUID_PATTERN } from "../../kernel/schemas";
import { answerTo, clawBack, creditPurchase, knownFan, minorUnits, redeemedBy, toTopup, type WebhookAnswer } from "./credit-and-clawback";
import { errors as paymentsErrors } from "./errors";
import { appStoreMode } from "./modes";
import { productByStoreId } from "./queries";

// The App Store through Apple's official library: StoreKit 2 signed transactions (JWS) from the app and App Store
// Server Notifications V2, each verified against Apple's root certificates (APPLE_IAP_ROOT_CERTIFICATES: Apple Root
// CA - G3 in production; tests and `npm run dev` use a chain made for them), for one app (APPLE_IAP_BUNDLE_ID) in
// one environment. Unconfigured: its routes answer 503 PAYMENTS_UNAVAILABLE.

export { appStoreMode, type AppStoreMode } from "./modes";

/** The PEM certificates in the setting: the PEM text itself, or a path to a file holding it. */
function rootCertificates(setting: string): Buffer[] {
  const pem = setting.includes("-----BEGIN CERTIFICATE-----") ? setting : readFileSync(setting, "utf8");
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b).raw);
}

let verifier: { key: string; verifier: SignedDataVerifier } | undefined;

function appStore(): SignedDataVerifier {
  const e = env();
  if (appStoreMode() === "unconfigured") {
    throw new DomainError(
      paymentsErrors.PAYMENTS_UNAVAILABLE,
      "In-app purchases on iOS are not available on this deployment (the App Store is not configured).",
    );
  }
  const key = [e.APPLE_IAP_BUNDLE_ID, e.APPLE_IAP_ENVIRONMENT, e.APPLE_IAP_APP_APPLE_ID, e.APPLE_IAP_ROOT_CERTIFICATES, e.APPLE_IAP_ONLINE_CHECKS].join("\n");
  if (verifier?.key !== key) {
    const environment = e.APPLE_IAP_ENVIRONMENT === "Production" ? Environment.PRODUCTION : Environment.SANDBOX;
    verifier = {
      key,
      verifier: new SignedDataVerifier(
        rootCertificates(e.APPLE_IAP_ROOT_CERTIFICATES!),
        e.APPLE_IAP_ONLINE_CHECKS,
        environment,
        e.APPLE_IAP_BUNDLE_ID!,
        e.APPLE_IAP_APP_APPLE_ID,
      ),
    };
  }
  return verifier.verifier;
}

/** Apple's refusal as our error: another app or environment named as such, anything else an invalid receipt. */
function refused(error: unknown): never {
  const status = error instanceof VerificationException ? error.status : undefined;
  if (status === VerificationStatus.INVALID_APP_IDENTIFIER) {
    throw new DomainError(paymentsErrors.RECEIPT_OTHER_APP, "The transaction belongs to another app.");
  }
  if (status === VerificationStatus.INVALID_ENVIRONMENT) {
    throw new DomainError(
      paymentsErrors.RECEIPT_OTHER_ENVIRONMENT,
      `The transaction is from another App Store environment than this deployment's (${env().APPLE_IAP_ENVIRONMENT}).`,
    );
  }
  throw new DomainError(paymentsErrors.RECEIPT_INVALID, "The signed data is not a valid App Store signature (its certificate chain, signature or content).");
}

/** A StoreKit 2 signed transaction, verified and decoded. */
export async function verifyAppleTransaction(signedTransaction: string): Promise<JWSTransactionDecodedPayload> {
  const store = appStore();
  try {
    return await store.verifyAndDecodeTransaction(signedTransaction);
  } catch (error) {
    refused(error);
  }
}

/** An App Store Server Notification V2 (`signedPayload`), verified and decoded, with its transaction when it has one. */
export async function verifyAppleNotification(
  signedPayload: string,
): Promise<{ notification: ResponseBodyV2DecodedPayload; transaction: JWSTransactionDecodedPayload | undefined }> {
  const store = appStore();
  try {
    const notification = await store.verifyAndDecodeNotification(signedPayload);
    const signed = notification.data?.signedTransactionInfo;
    return { notification, transaction: signed ? await store.verifyAndDecodeTransaction(signed) : undefined };
  } catch (error) {
    refused(error);
  }
}

const PROVIDER = "app_store";

/** What a verified transaction credits, or why it is refused (another fan's, not a bundle, revoked). */
async function creditable(db: Db, t: JWSTransactionDecodedPayload) {
  const product = t.productId ? await productByStoreId(db, PROVIDER, t.productId) : undefined;
  if (!product || t.type !== "Consumable" || !t.transactionId) {
    throw new DomainError(paymentsErrors.UNKNOWN_PRODUCT, `The App Store product ${t.productId ?? "(none)"} is not a coin bundle on sale here.`);
  }
  const userId = t.appAccountToken && UUID_PATTERN.test(t.appAccountToken) ? t.appAccountToken.toLowerCase() : null;
  return {
    txnId: t.transactionId,
    userId,
    productId: product.id,
    coins: product.coins,
    amount: minorUnits(t.price, t.currency),
    currency: (t.currency ?? "usd").toLowerCase(),
  };
}

/**
 * POST /api/v1/wallet/iap/apple: credits a StoreKit 2 transaction the app sends, once per transaction id whichever of
 * this call and the App Store's notification comes first, and answers the top-up. The app must have set the
 * transaction's appAccountToken to the fan's user id.
 */
export async function redeemAppleTransaction(db: Db, userId: string, signedTransaction: string) {
  const t = await verifyAppleTransaction(signedTransaction);
  const c = await creditable(db, t);
  if (c.userId !== userId) throw new DomainError(paymentsErrors.RECEIPT_OTHER_USER, "This transaction was made for another account.");
  if (t.revocationDate) throw new DomainError(paymentsErrors.RECEIPT_REVOKED, "The App Store refunded or revoked this transaction.");
  await creditPurchase(db, { provider: PROVIDER, eventId: `transaction:${c.txnId}`, type: "transaction", id: uuidv7(), ...c, userId });
  const row = await redeemedBy(db, PROVIDER, c.txnId, userId, "This transaction was made for another account.");
  return { topup: toTopup(row) };
}

/**
 * POST /api/webhooks/app-store: an App Store Server Notification V2, verified, processed once per notificationUUID.
 * ONE_TIME_CHARGE credits (as the app's call would); REFUND and REVOKE claw the coins back (held until the credit
 * when it has not landed yet); the rest is acknowledged and ignored.
 */
export async function handleAppleNotification(db: Db, signedPayload: string): Promise<WebhookAnswer> {
  const { notification, transaction } = await verifyAppleNotification(signedPayload);
  const eventId = notification.notificationUUID ?? "";
  const type = String(notification.notificationType ?? "");
  const answer = answerTo(eventId);
  if (!eventId || !transaction) return answer({ duplicate: false, outcome: "ignored" });
  const c = await creditable(db, transaction).catch(() => undefined);
  if (!c) return answer({ duplicate: false, outcome: "ignored" });
  const base = { provider: PROVIDER, eventId, type };
  if (type === "ONE_TIME_CHARGE") {
    // A token that names no fan of ours (set by another build of the app, say): acknowledged, never credited.
    const fan = await knownFan(db, c.userId);
    if (!fan) return answer({ duplicate: false, outcome: "ignored" });
    return answer(await creditPurchase(db, { ...base, id: uuidv7(), ...c, userId: fan.id }));
  }
  if (type === "REFUND" || type === "REVOKE") return answer(await clawBack(db, { ...base, txnId: c.txnId, kind: "refund", cumulative: c.amount }));
  return answer({ duplicate: false, outcome: "ignored" });
}
