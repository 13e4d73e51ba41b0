import { execFileSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CompactSign } from "jose";

// A stand-in for the App Store's signing, for tests and `npm run dev`: a certificate chain shaped as Apple's (a root,
// an intermediate with Apple's WWDR marker extension, a leaf with the App Store receipt-signing one), made with
// openssl, and JWS signed with its leaf as the App Store signs transactions and notifications. A server that trusts
// the chain's root (APPLE_IAP_ROOT_CERTIFICATES) verifies them with Apple's own library.

/** What `npm run dev` configures when APPLE_IAP_BUNDLE_ID is unset (the seeded bundles' product ids start with it). */
export const DEV_APPLE_BUNDLE_ID = "com.example.fanapp";

export interface AppleChain {
  rootPem: string;
  leafKey: string;
  /** base64 DER certificates, leaf first (a JWS's x5c header). */
  x5c: string[];
}

/** Makes the chain's files in `dir` (named `name-*`) once and reads them. */
export function appleChain(dir: string, name: string): AppleChain {
  const file = (f: string) => path.join(dir, `${name}-${f}`);
  if (!existsSync(file("leaf.crt"))) {
    mkdirSync(dir, { recursive: true });
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    const run = (args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
    const ca = ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"];
    run([
      "req",
      "-x509",
      ...ec,
      "-keyout",
      file("root.key"),
      "-out",
      file("root.crt"),
      "-days",
      "3650",
      "-subj",
      `/CN=${name} Root CA`,
      ...ca.flatMap((e) => ["-addext", e]),
    ]);
    const issue = (cn: string, out: string, extensions: string[], issuer: string) => {
      writeFileSync(file(`${out}.cnf`), extensions.join("\n"));
      run(["req", "-new", ...ec, "-keyout", file(`${out}.key`), "-out", file(`${out}.csr`), "-subj", `/CN=${cn}`]);
      run(
        ["x509", "-req", "-in", file(`${out}.csr`), "-CA", file(`${issuer}.crt`), "-CAkey", file(`${issuer}.key`), "-CAcreateserial", "-days", "3650"].concat([
          "-out",
          file(`${out}.crt`),
          "-extfile",
          file(`${out}.cnf`),
        ]),
      );
    };
    issue(`${name} WWDR`, "int", [...ca, "1.2.840.113635.100.6.2.1=ASN1:NULL"], "root");
    issue(`${name} Receipt Signing`, "leaf", ["basicConstraints=critical,CA:FALSE", "1.2.840.113635.100.6.11.1=ASN1:NULL"], "int");
  }
  const der = (crt: string) => readFileSync(file(crt), "utf8").replace(/-----[^-]+-----|\s/g, "");
  return {
    rootPem: readFileSync(file("root.crt"), "utf8"),
    leafKey: readFileSync(file("leaf.key"), "utf8"),
    x5c: [der("leaf.crt"), der("int.crt"), der("root.crt")],
  };
}

/** `payload` signed as the App Store signs (ES256, the chain in x5c). */
export function signAsAppStore(chain: AppleChain, payload: unknown): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: "ES256", x5c: chain.x5c })
    .sign(createPrivateKey(chain.leafKey));
}
