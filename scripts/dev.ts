// npm run dev: development keys (when CLERK_JWT_KEY is unset), database created, migrated and seeded, then `next dev`.
import { spawn } from "node:child_process";
import { ensureDevKeyPair } from "../lib/auth/keys";
import { createDb } from "../lib/db/client";
import { ensureDatabase, migrate } from "../lib/db/migrate";
import { seed } from "../lib/db/seed";
import { databaseUrl } from "../lib/env";

if (!process.env.CLERK_JWT_KEY) {
  ensureDevKeyPair();
  console.log("auth: CLERK_JWT_KEY unset; verifying with the development key pair in .dev-keys/ (mint tokens with `npm run token -- <userId>`)");
}
const url = databaseUrl();
await ensureDatabase(url);
const { applied } = await migrate(url);
console.log(`database: ${applied.length} migration(s) applied`);
const db = createDb(url, 2);
const counts = await seed(db);
await db.$disconnect();
console.log(`database: seeded ${counts.teams} teams in ${counts.leagues} leagues`);

const child = spawn("npx", ["next", "dev", ...process.argv.slice(2)], { stdio: "inherit", env: process.env });
child.on("exit", (code) => process.exit(code ?? 0));
