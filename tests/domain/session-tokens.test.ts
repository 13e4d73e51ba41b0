import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";

import { signSessionToken } from "../../lib/auth/sign";
import { verifySessionToken } from "../../lib/auth/tokens";

// A key pair of this file's own: the verifier reads CLERK_JWT_KEY at its first use.
const keyPair = () =>
  generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
const keys = keyPair();
process.env.CLERK_JWT_KEY = keys.publicKey;

afterEach(() => vi.useRealTimers());

describe("session-token verification cache", () => {
  it("a cached token is refused once it expires (beyond the skew), as an uncached one is", async () => {
    const token = signSessionToken(keys.privateKey, "user_cache_expiry", { ttlSeconds: 60 });
    expect((await verifySessionToken(token)).externalId).toBe("user_cache_expiry");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 62_000); // past exp, within the skew: still accepted
    expect((await verifySessionToken(token)).externalId).toBe("user_cache_expiry");
    vi.setSystemTime(Date.now() + 4_000); // past exp + skew
    await expect(verifySessionToken(token)).rejects.toMatchObject({ code: "UNAUTHORIZED", message: expect.stringMatching(/expired/) });
    await expect(verifySessionToken(token)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("a verified token does not vouch for an altered copy of it", async () => {
    const token = signSessionToken(keys.privateKey, "user_cache_altered");
    await verifySessionToken(token);
    const [h, , s] = token.split(".");
    const payload = Buffer.from(
      JSON.stringify({ sub: "user_cache_admin", sid: "sess_x", iss: "https://clerk.local.dev", exp: 9_999_999_999, metadata: { role: "admin" } }),
    ).toString("base64url");
    await expect(verifySessionToken(`${h}.${payload}.${s}`)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("a token signed by another key is refused even after the real one was cached", async () => {
    const other = keyPair();
    await verifySessionToken(signSessionToken(keys.privateKey, "user_cache_forged"));
    await expect(verifySessionToken(signSessionToken(other.privateKey, "user_cache_forged"))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
