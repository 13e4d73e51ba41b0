import { afterAll, describe, expect, it } from "vitest";
import { db, direct } from "../../lib/db/client";
import { int8, raw } from "../../lib/db/raw";
import { Prisma } from "../../lib/generated/prisma/client";

// `direct` runs raw statements on the app's pool without Prisma's client: its values must be exactly Prisma's.

// In a time zone of its own, as a server may run in: dates and timestamps must not move with it.
const zone = process.env.TZ;
process.env.TZ = "America/Sao_Paulo";
afterAll(async () => {
  process.env.TZ = zone;
  await db.$disconnect();
});

const at = new Date("2026-03-04T05:06:07.089Z");
const typed = (a: TemplateStringsArray | Prisma.Sql) => a;

describe("direct raw statements", () => {
  it("gives every column type the value Prisma's raw query gives", async () => {
    const query = typed(Prisma.sql`
      SELECT 1::int2 AS i2, 2::int4 AS i4, 9007199254740993::int8 AS i8, count(*) AS counted, 1.5::float4 AS f4, 2.25::float8 AS f8,
             12.340::numeric AS num, NULL::numeric AS nnum, true AS b, 'x'::text AS t, 'v'::varchar AS v, 'c'::char(2) AS c,
             '0190a000-0000-7000-8000-000000000000'::uuid AS id,
             '2026-11-23'::date AS d, '2026-11-23 10:11:12.345'::timestamp AS ts, '2026-11-23 10:11:12.345+02'::timestamptz AS tstz,
             '{"a": [1, {"b": null}], "c": "d"}'::jsonb AS jb, '[1, 2]'::json AS j,
             ARRAY['a', 'b,c', NULL]::text[] AS texts, ARRAY[1, 2]::int4[] AS ints, ARRAY[3, NULL]::int8[] AS bigs, '{}'::int8[] AS nobigs,
             ARRAY[1.5, 2]::numeric[] AS nums, ARRAY['2026-01-02', NULL]::date[] AS days,
             ARRAY['2026-01-02 03:04:05.678']::timestamp[] AS stamps,
             NULL::int8 AS nbig, NULL::date AS nday, NULL::jsonb AS njson,
             ${at}::timestamptz AS param_at, ${at}::date AS param_day, ${12n}::int8 AS param_big, ${["p", "q"]}::text[] AS param_arr,
             ${"2026-11-23"}::date AS param_text_day, ${JSON.stringify({ k: 1 })}::jsonb AS param_json
      FROM (SELECT 1) s`);
    const [viaPrisma] = await db.$queryRaw<Record<string, unknown>[]>(query);
    const [viaDirect] = await direct.$queryRaw<Record<string, unknown>[]>(query);
    expect(viaDirect).toEqual(viaPrisma);
    // toEqual compares Decimals and bigints by value; their kinds must match too.
    for (const [key, value] of Object.entries(viaPrisma!)) {
      expect(Object.prototype.toString.call(viaDirect![key]), key).toBe(Object.prototype.toString.call(value));
    }
    expect(viaDirect!.i8).toBe(9007199254740993n);
    expect(viaDirect!.d).toEqual(new Date("2026-11-23T00:00:00Z"));
    expect(viaDirect!.param_day).toEqual(new Date("2026-03-04T00:00:00Z"));
  });

  it("reads money and Rep columns (int8) as the same exact numbers on both paths, past 2^31 and up to 2^53 - 1", async () => {
    const query = typed(Prisma.sql`SELECT 2147483648::int8 AS balance, 9007199254740991::int8 AS top, NULL::int8 AS fee, 'x' AS note`);
    for (const path of [db, direct]) {
      const [row] = await path.$queryRaw<{ balance: bigint; top: bigint; fee: bigint | null; note: string }[]>(query);
      expect(int8(row!, ["balance", "top", "fee"])).toStrictEqual({ balance: 2147483648, top: 9007199254740991, fee: null, note: "x" });
    }
  });

  it("takes tagged templates as Prisma does, counts the rows a write touched, and reports errors", async () => {
    const n = 3;
    expect(await direct.$queryRaw<{ x: number }[]>`SELECT ${n}::int + 1 AS x`).toEqual([{ x: 4 }]);
    expect(await direct.$executeRaw`SELECT generate_series(1, ${n}::int)`).toBe(3);
    await expect(direct.$queryRaw`SELECT 1 / ${0}::int`).rejects.toThrow(/division by zero/);
  });

  it("is what raw() picks for the app's client only: a transaction's statements stay in the transaction", async () => {
    expect(raw(db)).toBe(direct);
    await db.$transaction(async (tx) => {
      expect(raw(tx)).toBe(tx);
      const [{ xid }] = await raw(tx).$queryRaw<{ xid: string }[]>`SELECT txid_current_if_assigned()::text AS xid`;
      expect(xid).toBeNull();
      await raw(tx).$queryRaw`SELECT txid_current()`;
      const [again] = await raw(tx).$queryRaw<{ xid: string | null }[]>`SELECT txid_current_if_assigned()::text AS xid`;
      expect(again!.xid).not.toBeNull(); // the same transaction saw its own id
    });
  });
});
