// Prints an App Store transaction for local use, signed by the development chain `npm run dev` trusts when
// APPLE_IAP_BUNDLE_ID is unset: npm run iap:apple -- <userId> [appStoreProductId]. POST it as `signedTransaction` to
// /api/v1/wallet/iap/apple with that user's token (npm run token) to buy the bundle as the iOS app would.
import path from "node:path";
import { DEV_KEY_DIR } from "../lib/auth/keys";
import { appleChain, consumableTransaction, DEV_APPLE_BUNDLE_ID, signAsAppStore } from "../dev/standins/app-store";

const [userId, productId = `${DEV_APPLE_BUNDLE_ID}.coins500`] = process.argv.slice(2);
if (!userId) {
  console.error("usage: npm run iap:apple -- <userId (the users row id)> [appStoreProductId]");
  process.exit(2);
}
const signed = await signAsAppStore(
  appleChain(path.join(DEV_KEY_DIR, "app-store"), "dev"),
  consumableTransaction(DEV_APPLE_BUNDLE_ID, { productId, appAccountToken: userId }),
);
console.log(signed);
