import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Fixture } from "../test-server";

// The App Store for the server under test: a certificate chain made for the run, shaped as Apple's (a root, an
// intermediate with Apple's WWDR marker extension, a leaf with the App Store receipt-signing one), whose root the
// server trusts instead of Apple Root CA - G3. Tests sign transactions and notifications with the leaf's key
// (tests/api/iap-apple.test.ts); `otherRoot` signs a chain the server must refuse.
export const APPLE_BUNDLE_ID = "com.example.fans";

function chain(dir: string, name: string) {
  const file = (f: string) => path.join(dir, `${name}-${f}`);
  const ext = (lines: string[]) => {
    writeFileSync(file("ext.cnf"), lines.join("\n"));
    return file("ext.cnf");
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  const run = (args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  run(["req", "-x509", ...ec, "-keyout", file("root.key"), "-out", file("root.crt"), "-days", "3", "-subj", `/CN=${name} Root CA`,
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  const issue = (cn: string, out: string, lines: string[], caCrt: string, caKey: string) => {
    run(["req", "-new", ...ec, "-keyout", file(`${out}.key`), "-out", file(`${out}.csr`), "-subj", `/CN=${cn}`]);
    run(["x509", "-req", "-in", file(`${out}.csr`), "-CA", caCrt, "-CAkey", caKey, "-CAcreateserial", "-days", "2", "-out", file(`${out}.crt`), "-extfile", ext(lines)]);
  };
  issue(`${name} WWDR`, "int", ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign", "1.2.840.113635.100.6.2.1=ASN1:NULL"], file("root.crt"), file("root.key"));
  issue(`${name} Receipt Signing`, "leaf", ["basicConstraints=critical,CA:FALSE", "1.2.840.113635.100.6.11.1=ASN1:NULL"], file("int.crt"), file("int.key"));
  const der = (crt: string) => readFileSync(file(crt), "utf8").replace(/-----[^-]+-----|\s/g, "");
  return { rootPem: readFileSync(file("root.crt"), "utf8"), leafKey: readFileSync(file("leaf.key"), "utf8"), x5c: [der("leaf.crt"), der("int.crt"), der("root.crt")] };
}

export default async function appStoreChain(): Promise<Fixture> {
  const dir = mkdtempSync(path.join(tmpdir(), "apple-chain-"));
  const trusted = chain(dir, "Test Apple");
  const other = chain(dir, "Other");
  return {
    env: {
      APPLE_IAP_BUNDLE_ID: APPLE_BUNDLE_ID,
      APPLE_IAP_ENVIRONMENT: "Sandbox",
      APPLE_IAP_ROOT_CERTIFICATES: trusted.rootPem,
      APPLE_IAP_ONLINE_CHECKS: "false",
    },
    // x5c: the chain's base64 DER certificates, leaf first, comma-separated.
    provided: { leafKey: trusted.leafKey, x5c: trusted.x5c.join(","), otherLeafKey: other.leafKey, otherX5c: other.x5c.join(",") },
    teardown: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
