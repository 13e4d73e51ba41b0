import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// Local development key pair, used only when CLERK_JWT_KEY is unset outside production.
// Lets `npm run dev` and `npm run token` work on a laptop with no Clerk account.
export const DEV_KEY_DIR = path.join(process.cwd(), ".dev-keys");
const publicPath = path.join(DEV_KEY_DIR, "public.pem");
const privatePath = path.join(DEV_KEY_DIR, "private.pem");

export function ensureDevKeyPair(): { publicKey: string; privateKey: string } {
  if (!existsSync(publicPath) || !existsSync(privatePath)) {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    mkdirSync(DEV_KEY_DIR, { recursive: true });
    writeFileSync(privatePath, privateKey, { mode: 0o600 });
    writeFileSync(publicPath, publicKey);
  }
  return { publicKey: readFileSync(publicPath, "utf8"), privateKey: readFileSync(privatePath, "utf8") };
}

export function readDevPublicKey(): string | undefined {
  return existsSync(publicPath) ? readFileSync(publicPath, "utf8") : undefined;
}
