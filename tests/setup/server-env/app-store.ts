import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { appleChain } from "../../../lib/payments/app-store-standin";
import type { Fixture } from "../test-server";

// The App Store for the server under test: a chain made for the run (lib/payments/app-store-standin.ts), whose root
// the server trusts instead of Apple Root CA - G3. Tests sign transactions and notifications with its leaf
// (tests/api/iap-apple.test.ts); `other*` is a second chain the server must refuse. x5c: comma-separated.
export default async function appStoreChain(): Promise<Fixture> {
  const dir = mkdtempSync(path.join(tmpdir(), "apple-chain-"));
  const trusted = appleChain(dir, "test");
  const other = appleChain(dir, "other");
  return {
    env: {
      APPLE_IAP_BUNDLE_ID: "com.example.fans",
      APPLE_IAP_ENVIRONMENT: "Sandbox",
      APPLE_IAP_ROOT_CERTIFICATES: trusted.rootPem,
      APPLE_IAP_ONLINE_CHECKS: "false",
    },
    provided: { leafKey: trusted.leafKey, x5c: trusted.x5c.join(","), otherLeafKey: other.leafKey, otherX5c: other.x5c.join(",") },
    teardown: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
