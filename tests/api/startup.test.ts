import { describe, expect, inject, it } from "vitest";
import { startProductionServer } from "../helpers";

// Production start-up refuses to fall back: no embedded database, no in-process rate limits unless asked for
// (lib/startup.ts). Each case starts `next start` of the build with every secret set but one store missing.

/** `next start` in production with every secret set, and `env` on top. */
const start = (env: Record<string, string | undefined>) =>
  startProductionServer({
    CLERK_JWT_KEY: inject("publicKey"),
    CLERK_SECRET_KEY: "sk_test_startup",
    CLERK_ISSUER: "https://clerk.example.com",
    CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
    MOBILE_STATE_SECRET: "x".repeat(32),
    ...env,
  });

const refused = (r: { code: number | null }) => r.code !== null && r.code !== 0;

describe("production start-up without a database or Redis", { timeout: 30_000 }, () => {
  it("refuses to start without DATABASE_URL, naming it", async () => {
    const r = await start({ REDIS_URL: "redis://127.0.0.1:1" });
    expect(refused(r)).toBe(true);
    expect(r.output).toMatch(/Refusing to start: DATABASE_URL is required in production/);
  });

  it("refuses to start when DATABASE_URL does not answer", async () => {
    const r = await start({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/nowhere", REDIS_URL: "redis://127.0.0.1:1" });
    expect(refused(r)).toBe(true);
    expect(r.output).toMatch(/Refusing to start: DATABASE_URL: cannot reach PostgreSQL at postgresql:\/\/postgres@127\.0\.0\.1:1\/nowhere/);
  });

  it("refuses to start without REDIS_URL or Upstash, naming them", async () => {
    const r = await start({ DATABASE_URL: inject("databaseUrl") });
    expect(refused(r)).toBe(true);
    expect(r.output).toMatch(/Refusing to start: REDIS_URL or UPSTASH_REDIS_REST_URL .* is required in production/);
  });

  it("refuses to start with an FCM service account that is incomplete or whose key cannot be read, naming it", async () => {
    const incomplete = await start({ FCM_SERVICE_ACCOUNT_JSON: JSON.stringify({ project_id: "p" }) });
    expect(refused(incomplete)).toBe(true);
    expect(incomplete.output).toMatch(/Refusing to start: FCM_SERVICE_ACCOUNT_JSON: client_email/);
    const badKey = await start({
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify({ project_id: "p", client_email: "a@p.iam.gserviceaccount.com", private_key: "not a key" }),
    });
    expect(refused(badKey)).toBe(true);
    expect(badKey.output).toMatch(/Refusing to start: FCM_SERVICE_ACCOUNT_JSON: /);
  });

  it("refuses to start when REDIS_URL does not answer", async () => {
    const r = await start({ DATABASE_URL: inject("databaseUrl"), REDIS_URL: "redis://127.0.0.1:1" });
    expect(refused(r)).toBe(true);
    expect(r.output).toMatch(/Refusing to start: REDIS_URL: no Redis answers at redis:\/\/127\.0\.0\.1:1/);
  });
});
