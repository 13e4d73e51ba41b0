import { randomBytes } from "node:crypto";
import type { Fixture } from "../test-server";

// Data exports: the key signing download links, known to the tests so they can build links the server must refuse
// (an expiry in the past, a changed signature) without waiting 15 minutes.
export default async function exportsEnv(): Promise<Fixture> {
  const linkSecret = `exports_${randomBytes(24).toString("hex")}`;
  return { env: { EXPORT_LINK_SECRET: linkSecret }, provided: { linkSecret } };
}
