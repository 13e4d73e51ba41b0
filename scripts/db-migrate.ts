import { ensureDatabase, migrate } from "../lib/db/migrate";
import { databaseUrl } from "../lib/env";

const url = databaseUrl();
try {
  await ensureDatabase(url);
  const { applied, alreadyApplied } = await migrate(url);
  console.log(`migrations: ${applied.length} applied${applied.length ? ` (${applied.join(", ")})` : ""}, ${alreadyApplied} already applied`);
} catch (error) {
  console.error(`db:migrate failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
