import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { appleChain, startAppStoreStandIn } from "../../../dev/standins/app-store";
import type { Fixture } from "../test-server";

// The App Store for the server under test: a chain made for the run (dev/standins/app-store.ts), whose root
// the server trusts instead of Apple Root CA - G3. Tests sign transactions and notifications with its leaf
// (tests/api/iap-apple.test.ts); `other*` is a second chain the server must refuse. x5c: comma-separated. The App Store
// Server API stand-in (same chain) answers the reconciliation; tests make purchases and refunds through its control.
export default async function appStoreChain(): Promise<Fixture> {
  const dir = mkdtempSync(path.join(tmpdir(), "apple-chain-"));
  const trusted = appleChain(dir, "test");
  const other = appleChain(dir, "other");
  const standIn = await startAppStoreStandIn({ chain: trusted, bundleId: "com.example.fans" });
  return {
    env: {
      APPLE_IAP_BUNDLE_ID: "com.example.fans",
      APPLE_IAP_ENVIRONMENT: "Sandbox",
      APPLE_IAP_ROOT_CERTIFICATES: trusted.rootPem,
      APPLE_IAP_ONLINE_CHECKS: "false",
      APPLE_IAP_API_KEY: standIn.apiKey,
      APPLE_IAP_API_KEY_ID: standIn.apiKeyId,
      APPLE_IAP_API_ISSUER_ID: standIn.apiIssuerId,
      APPLE_IAP_API_URL: standIn.url,
    },
    provided: {
      leafKey: trusted.leafKey,
      x5c: trusted.x5c.join(","),
      otherLeafKey: other.leafKey,
      otherX5c: other.x5c.join(","),
      apiUrl: standIn.url,
    },
    teardown: async () => {
      await standIn.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
