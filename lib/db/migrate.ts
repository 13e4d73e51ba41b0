import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

// Applies prisma/migrations/*/migration.sql without Prisma's schema-engine binary and records each in
// _prisma_migrations exactly as `prisma migrate deploy` does (same table, checksum = sha256 of the file),
// so either tool can manage a database. Holds Prisma's advisory lock so two appliers never interleave.

const PRISMA_MIGRATE_LOCK = 72707369;

// The settings every session of the app's database runs with, set on the database (ALTER DATABASE … SET) each time
// the migrations run, so a session gets them however it connects: directly or through a transaction pooler, which
// passes no startup options on (they were the pool's `-c` options until decision 0071).
// - Generic plans: our statements are parameterised the same way on every call, but PostgreSQL's default keeps
//   planning a custom plan per execution when it guesses the generic one costs more. For the feed and the engagement
//   reads that planning cost more CPU than running them (bench: PG µs/req about halved).
// - No JIT: a generic plan's estimates over a large table (1,000,000 posts) passed the JIT threshold, and the feed's
//   statement was compiled on every execution (28 ms against 0.5 ms without); these are short OLTP statements.
// - Join reordering up to 12 relations (PostgreSQL's default stops at 8, then keeps the written order): a post read
//   has nine joins, and a page that picks its posts by a driving set (a snapshot's ids, bookmarks, search matches)
//   must be free to start from that set rather than scan every post.
// - A small GIN pending list (64 kB, not 4 MB) for the rows these sessions insert: a search scans the whole unmerged
//   list, and after many inserts a 4 MB list made a trigram look-up 15-25 ms instead of 0.25 ms.
export const DATABASE_SETTINGS: Readonly<Record<string, string>> = {
  plan_cache_mode: "force_generic_plan",
  jit: "off",
  join_collapse_limit: "12",
  from_collapse_limit: "12",
  gin_pending_list_limit: "64",
};

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(url: string, dir = path.join(process.cwd(), "prisma", "migrations")): Promise<MigrateResult> {
  const names = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
        .map((d) => d.name)
        .sort()
    : [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum"              VARCHAR(64) NOT NULL,
      "finished_at"           TIMESTAMPTZ,
      "migration_name"        VARCHAR(255) NOT NULL,
      "logs"                  TEXT,
      "rolled_back_at"        TIMESTAMPTZ,
      "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed) throw new Error(`Migration ${failed.migration_name} failed earlier and is not resolved; fix the database first.`);
    const done = new Map(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [r.migration_name, r.checksum]));

    const applied: string[] = [];
    for (const name of names) {
      const sql = readFileSync(path.join(dir, name, "migration.sql"));
      const checksum = createHash("sha256").update(sql).digest("hex");
      const prior = done.get(name);
      if (prior) {
        if (prior !== checksum) throw new Error(`Migration ${name} was edited after it was applied (checksum differs).`);
        continue;
      }
      const id = randomUUID();
      await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`, [
        id,
        checksum,
        name,
      ]);
      try {
        await client.query("BEGIN");
        await client.query(sql.toString("utf8"));
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, String(error)]);
        throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : error}`);
      }
      await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
      applied.push(name);
    }
    await applyDatabaseSettings(client);
    return { applied, alreadyApplied: done.size };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK]).catch(() => {});
    await client.end();
  }
}

/** Creates the database named in the URL when it does not exist (local development and tests). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** Sets DATABASE_SETTINGS on the connected database (its owner or a superuser may; otherwise says what to run). */
async function applyDatabaseSettings(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>("SELECT current_database() AS name");
  const database = client.escapeIdentifier(rows[0]!.name);
  for (const [name, value] of Object.entries(DATABASE_SETTINGS)) {
    try {
      await client.query(`ALTER DATABASE ${database} SET ${name} = ${client.escapeLiteral(value)}`);
    } catch (error) {
      console.warn(
        `db:migrate: could not set ${name} on the database (${error instanceof Error ? error.message : error}); run ALTER DATABASE ${database} SET ${name} = '${value}' as its owner`,
      );
    }
  }
}
