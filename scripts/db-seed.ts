// Loads the demo seed into DATABASE_URL (default: the local development database).
// Usage: tsx scripts/db-seed.ts — safe to run repeatedly; it leaves the same rows every time.

import type { PrismaClient } from "../lib/generated/prisma/client";
import { seed } from "../dev/seed/seed";

async function main(): Promise<number> {
  let db: PrismaClient | undefined;
  try {
    // Imported here so that an invalid environment (read when the module loads) is reported like any other failure.
    const { createDb } = await import("../lib/db/client");
    db = createDb();
    const started = performance.now();
    const c = await seed(db);
    const ms = Math.round(performance.now() - started);
    console.log(
      `seeded: ${c.leagues} leagues, ${c.teams} teams, ${c.players} players, ${c.games} games, ` + `${c.quests} quests, ${c.rewards} rewards (${ms} ms)`,
    );
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`db-seed failed: ${message}`);
    return 1;
  } finally {
    await db?.$disconnect().catch(() => {});
  }
}

process.exitCode = await main();
