// Prints an App Store transaction for local use, signed by the development chain `npm run dev` trusts when
// APPLE_IAP_BUNDLE_ID is unset: npm run iap:apple -- <userId> [appStoreProductId]. POST it as `signedTransaction` to
// /api/v1/wallet/iap/apple with that user's token (npm run token) to buy the bundle as the iOS app would.
import path from "node:path";
import { randomInt } from "node:crypto";
import { DEV_KEY_DIR } from "../lib/auth/keys";
import { appleChain, DEV_APPLE_BUNDLE_ID, signAsAppStore } from "../lib/payments/app-store-standin";

const [userId, productId = `${DEV_APPLE_BUNDLE_ID}.coins500`] = process.argv.slice(2);
if (!userId) {
  console.error("usage: npm run iap:apple -- <userId (the users row id)> [appStoreProductId]");
  process.exit(2);
}
const now = Date.now();
const transactionId = `2000000${randomInt(1e9, 9e9)}`;
const signed = await signAsAppStore(appleChain(path.join(DEV_KEY_DIR, "app-store"), "dev"), {
  transactionId,
  originalTransactionId: transactionId,
  bundleId: DEV_APPLE_BUNDLE_ID,
  productId,
  purchaseDate: now,
  originalPurchaseDate: now,
  signedDate: now,
  quantity: 1,
  type: "Consumable",
  inAppOwnershipType: "PURCHASED",
  environment: "Sandbox",
  transactionReason: "PURCHASE",
  appAccountToken: userId,
  storefront: "USA",
  price: 4990,
  currency: "USD",
});
console.log(signed);
