import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DATABASE_SETTINGS, ensureDatabase, migrate } from "../../lib/db/migrate";

const ADMIN = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const created: string[] = [];

async function scratchUrl(): Promise<string> {
  const url = new URL(ADMIN);
  url.pathname = `/fan_migrate_${Math.random().toString(36).slice(2, 10)}`;
  created.push(url.pathname.slice(1));
  await ensureDatabase(url.toString());
  return url.toString();
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  for (const name of created) await query(ADMIN, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

const MIGRATIONS = path.join(process.cwd(), "prisma", "migrations");

describe("db:migrate applier", () => {
  it("applies every migration once and records them as prisma migrate deploy does", async () => {
    const url = await scratchUrl();
    const first = await migrate(url);
    const names = readdirSync(MIGRATIONS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(first.applied).toEqual(names);

    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; rolled_back_at: Date | null }>(
      url,
      `SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const r of rows) {
      const sql = readFileSync(path.join(MIGRATIONS, r.migration_name, "migration.sql"));
      expect(r.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.rolled_back_at).toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
    const columns = await query<{ column_name: string }>(
      url,
      `SELECT column_name FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      "id",
      "checksum",
      "finished_at",
      "migration_name",
      "logs",
      "rolled_back_at",
      "started_at",
      "applied_steps_count",
    ]);

    const second = await migrate(url);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toBe(names.length);
  });

  it("sets the database's session settings, so every new session has them without startup options (a pooler passes none)", async () => {
    const url = await scratchUrl();
    await migrate(url);
    const c = new pg.Client({ connectionString: url }); // a new session, no options of its own
    await c.connect();
    try {
      for (const [name, value] of Object.entries(DATABASE_SETTINGS)) {
        const [row] = (await c.query(`SELECT current_setting($1) AS v`, [name])).rows as { v: string }[];
        expect(row!.v.replace(/kB$/, ""), name).toBe(value);
      }
    } finally {
      await c.end();
    }
  });

  it("two appliers at once apply each migration exactly once", async () => {
    const url = await scratchUrl();
    const results = await Promise.all([migrate(url), migrate(url)]);
    expect(results.flatMap((r) => r.applied).length).toBe(readdirSync(MIGRATIONS, { withFileTypes: true }).filter((d) => d.isDirectory()).length);
    const [{ count }] = await query<{ count: string }>(url, `SELECT count(*) FROM _prisma_migrations`);
    expect(Number(count)).toBe(results.flatMap((r) => r.applied).length);
  });

  it("refuses a migration edited after it was applied, and records a failed one without marking it finished", async () => {
    const url = await scratchUrl();
    const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS, dir, { recursive: true });
    await migrate(url, dir);

    const [firstName] = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const file = path.join(dir, firstName!, "migration.sql");
    writeFileSync(file, readFileSync(file, "utf8") + "\n-- edited\n");
    await expect(migrate(url, dir)).rejects.toThrow(/edited after it was applied/);

    const dir2 = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS, dir2, { recursive: true });
    const broken = path.join(dir2, "29990101000000_broken");
    cpSync(path.join(dir2, firstName!), broken, { recursive: true });
    writeFileSync(path.join(broken, "migration.sql"), "CREATE TABLE ok_table (id int);\nSELECT * FROM no_such_table;\n");
    const url2 = await scratchUrl();
    await expect(migrate(url2, dir2)).rejects.toThrow(/29990101000000_broken failed/);
    const rows = await query<{ migration_name: string; finished_at: Date | null }>(
      url2,
      `SELECT migration_name, finished_at FROM _prisma_migrations WHERE migration_name LIKE '%broken'`,
    );
    expect(rows).toEqual([{ migration_name: "29990101000000_broken", finished_at: null }]);
    const tables = await query(url2, `SELECT 1 FROM information_schema.tables WHERE table_name = 'ok_table'`);
    expect(tables).toEqual([]); // the failed migration's transaction was rolled back
    await expect(migrate(url2, dir2)).rejects.toThrow(/failed earlier/);
  });
});
