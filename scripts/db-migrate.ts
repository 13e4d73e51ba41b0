import { ensureDatabase, migrate } from "../lib/db/migrate";
import { directDatabaseUrl } from "../lib/env";

// Migrations hold a session-level advisory lock: the direct URL when DATABASE_URL goes through a transaction pooler.
const url = directDatabaseUrl();
try {
  await ensureDatabase(url);
  const { applied, alreadyApplied } = await migrate(url);
  console.log(`migrations: ${applied.length} applied${applied.length ? ` (${applied.join(", ")})` : ""}, ${alreadyApplied} already applied`);
} catch (error) {
  console.error(`db:migrate failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
