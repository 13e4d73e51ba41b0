import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser } from "../helpers";
import { searchTeams } from "../../lib/core/teams/service";
import type { TeamSearchQuery, TeamSearchSort } from "../../lib/core/teams/schemas";

// GET /api/teams/search. The shared database's 35 live seeded teams must stay as they are (other suites count
// them), so tie cases beyond the seed's (ranks run 1..n per league, so ranks tie across leagues) are tested
// against the search function inside a transaction that is rolled back: nobody else ever sees those rows.

const SEARCH = "/api/teams/search";
type Team = { id: string; name: string; rank: number | null; fanCount: number; [k: string]: unknown };
type Page = { teams: Team[]; nextCursor?: string };

const ORDER = {
  name: [{ name: "asc" as const }, { id: "asc" as const }],
  rank: [{ rank: { sort: "asc" as const, nulls: "last" as const } }, { id: "asc" as const }],
  fans: [{ fanCount: "desc" as const }, { id: "asc" as const }],
};
const SORTS = ["name", "rank", "fans"] as const;

/** Expected order, read with Prisma's own ORDER BY (independent of the route's SQL, same collation). */
async function expectedIds(sort: TeamSearchSort, where: Record<string, unknown> = {}) {
  const rows = await db().team.findMany({ where: { archivedAt: null, ...where }, orderBy: ORDER[sort], select: { id: true } });
  return rows.map((r) => r.id);
}

const qs = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();

/** Walks every page; asserts page sizes and that the last page (only) has no nextCursor. */
async function walk(params: Record<string, string | number | undefined>, limit: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pageNo = 0; pageNo < 200; pageNo++) {
    const res = await api("GET", `${SEARCH}?${qs({ ...params, limit, cursor })}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    const page = res.body.data as Page;
    expect(page.teams.length).toBeLessThanOrEqual(limit);
    ids.push(...page.teams.map((t) => t.id));
    if (!page.nextCursor) return ids;
    expect(page.teams).toHaveLength(limit);
    cursor = page.nextCursor;
  }
  throw new Error("pagination did not end");
}

function cursorOf(sortKey: string, id: string) {
  return Buffer.from(JSON.stringify(["v1", sortKey, id]), "utf8").toString("base64url");
}

describe("GET /api/teams/search: pagination", () => {
  it("the seed has rank ties across leagues (so the rank walk crosses ties)", async () => {
    const ranks = (await db().team.findMany({ where: { archivedAt: null }, select: { rank: true } })).map((t) => t.rank);
    expect(ranks.filter((r) => r === 1).length).toBe(4);
  });

  it.each(SORTS.flatMap((sort) => [1, 4, 7, 50].map((limit) => [sort, limit] as const)))(
    "sort=%s limit=%i walks every live team exactly once, in order",
    async (sort, limit) => {
      const expected = await expectedIds(sort);
      expect(expected.length).toBeGreaterThanOrEqual(35);
      const ids = await walk({ sort }, limit);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected);
      expect(ids).not.toContain("tm_dvs");
    },
  );

  it("defaults: sort=name, limit 20, enveloped { teams, nextCursor }", async () => {
    const res = await api("GET", SEARCH);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "success"]);
    expect(Object.keys(res.body.data).sort()).toEqual(["nextCursor", "teams"]);
    const expected = await expectedIds("name");
    expect(res.body.data.teams.map((t: Team) => t.id)).toEqual(expected.slice(0, 20));
    const next = await api("GET", `${SEARCH}?cursor=${res.body.data.nextCursor}`);
    expect(next.status).toBe(200);
    expect(next.body.data.teams.map((t: Team) => t.id)).toEqual(expected.slice(20, 40));
    expect(next.body.data).not.toHaveProperty("nextCursor");
  });

  it("rank and fans orders hold: rank ascending then id; fanCount descending then id", async () => {
    const byRank = (await api("GET", `${SEARCH}?sort=rank&limit=50`)).body.data.teams as Team[];
    for (let i = 1; i < byRank.length; i++) {
      const [a, b] = [byRank[i - 1]!, byRank[i]!];
      expect(a.rank! < b.rank! || (a.rank === b.rank && a.id < b.id)).toBe(true);
    }
    const byFans = (await api("GET", `${SEARCH}?sort=fans&limit=50`)).body.data.teams as Team[];
    for (let i = 1; i < byFans.length; i++) {
      const [a, b] = [byFans[i - 1]!, byFans[i]!];
      expect(a.fanCount > b.fanCount || (a.fanCount === b.fanCount && a.id < b.id)).toBe(true);
    }
  });

  it("a signed-in caller gets the same list", async () => {
    const { auth } = newUser();
    const res = await api("GET", `${SEARCH}?sort=fans&limit=5`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.teams.map((t: Team) => t.id)).toEqual((await expectedIds("fans")).slice(0, 5));
  });
});

describe("GET /api/teams/search: filters", () => {
  async function matching(q: string) {
    const rows = await db().team.findMany({ where: { archivedAt: null }, orderBy: ORDER.name });
    const needle = q.toLowerCase();
    return rows.filter((t) => [t.name, t.shortName, t.city, t.abbreviation].some((v) => v?.toLowerCase().includes(needle))).map((t) => t.id);
  }

  it("q is a case-insensitive substring of name, short name, city or abbreviation", async () => {
    for (const q of ["HAR", "harbor", "bears", "fpb", "Rov", "port", "sc"]) {
      const res = await api("GET", `${SEARCH}?${qs({ q, limit: 50 })}`);
      expect(res.status).toBe(200);
      expect(
        res.body.data.teams.map((t: Team) => t.id),
        q,
      ).toEqual(await matching(q));
    }
    // Abbreviation only: "Frostport Polar Bears" does not contain "fpb".
    expect((await api("GET", `${SEARCH}?q=fpb`)).body.data.teams.map((t: Team) => t.id)).toEqual(["tm_fpb"]);
    // City (and name): "Maple Harbor"; short name only: "Polar Bears".
    expect((await api("GET", `${SEARCH}?q=maple%20harbor`)).body.data.teams.map((t: Team) => t.id)).toEqual(["tm_mhm"]);
    expect((await api("GET", `${SEARCH}?q=polar%20BEARS`)).body.data.teams.map((t: Team) => t.id)).toEqual(["tm_fpb"]);
    // Surrounding spaces are ignored.
    expect((await api("GET", `${SEARCH}?q=%20fpb%20`)).body.data.teams.map((t: Team) => t.id)).toEqual(["tm_fpb"]);
  });

  it("LIKE wildcards in q are literal", async () => {
    for (const q of ["%", "_", "H_rbor", "Harbor%Hawks", "\\"]) {
      const res = await api("GET", `${SEARCH}?${qs({ q })}`);
      expect(res.status, q).toBe(200);
      expect(res.body.data.teams, q).toEqual([]);
    }
  });

  it("archived teams are never found", async () => {
    const res = await api("GET", `${SEARCH}?q=dune`);
    expect(res.status).toBe(200);
    expect(res.body.data.teams).toEqual([]);
    expect(await db().team.count({ where: { name: { contains: "Dune" } } })).toBe(1);
  });

  it('sport compares normalised values; other finds the team stored with sport ""', async () => {
    const hockey = await expectedIds("name", { sport: "hockey" });
    expect(hockey).toHaveLength(8);
    for (const sport of ["hockey", "HOCKEY", " Hockey "]) {
      const res = await api("GET", `${SEARCH}?${qs({ sport, limit: 50 })}`);
      expect(res.status).toBe(200);
      expect(res.body.data.teams.map((t: Team) => t.id)).toEqual(hockey);
    }
    const other = await api("GET", `${SEARCH}?sport=other`);
    expect(other.body.data.teams.map((t: Team) => t.id)).toEqual(["tm_cwt"]);
    expect(other.body.data.teams[0]).toMatchObject({ sport: "other", leagueInfo: { sport: "soccer" } });
    expect((await api("GET", `${SEARCH}?sport=curling`)).body.data.teams).toEqual([]);
  });

  it("league takes an id or a slug and combines with q, sort and pagination", async () => {
    const nhl = await expectedIds("rank", { leagueId: "lg_nhl" });
    for (const league of ["lg_nhl", "nhl", "NHL"]) {
      expect(await walk({ league, sort: "rank" }, 3)).toEqual(nhl);
    }
    const res = await api("GET", `${SEARCH}?${qs({ league: "nfl", q: "port", sort: "fans" })}`);
    expect(res.status).toBe(200);
    const expected = (await db().team.findMany({ where: { archivedAt: null, leagueId: "lg_nfl" }, orderBy: ORDER.fans }))
      .filter((t) => [t.name, t.shortName, t.city, t.abbreviation].some((v) => v?.toLowerCase().includes("port")))
      .map((t) => t.id);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(res.body.data.teams.map((t: Team) => t.id)).toEqual(expected);
    expect((await api("GET", `${SEARCH}?league=no-such-league`)).body.data.teams).toEqual([]);
  });

  it("teams carry the list payload (sport, leagueInfo), no detail fields", async () => {
    const res = await api("GET", `${SEARCH}?q=harbor%20city`);
    expect(res.body.data.teams).toHaveLength(1);
    const t = res.body.data.teams[0];
    expect(t).toMatchObject({
      id: "tm_hch",
      slug: "harbor-city-hawks",
      sport: "football",
      rank: 1,
      fanCount: 184_250,
      leagueInfo: { id: "lg_nfl", slug: "nfl", sport: "football" },
      division: { id: "div_nfl_afc_east" },
    });
    expect(t).not.toHaveProperty("teamRecord");
  });
});

describe("GET /api/teams/search: validation", () => {
  const bad = async (query: string, path: string) => {
    const res = await api("GET", `${SEARCH}?${query}`);
    expect(res.status, query).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
    expect(
      errorOf(res).details?.map((d) => d.path),
      query,
    ).toContain(path);
  };

  it("bad q, limit, sort and unknown parameters name the field", async () => {
    await bad("q=", "query.q");
    await bad("q=%20%20", "query.q");
    await bad(`q=${"a".repeat(101)}`, "query.q");
    for (const limit of ["0", "51", "abc", "1.5", "-1", ""]) await bad(`limit=${limit}`, "query.limit");
    await bad("sort=popularity", "query.sort");
    await bad("sort=", "query.sort");
    await bad("sport=", "query.sport");
    await bad("league=", "query.league");
    await bad("page=2", "query.page");
    await bad("q=a&q=b", "query.q");
    // 100 characters is the limit, not past it.
    expect((await api("GET", `${SEARCH}?q=${"a".repeat(100)}`)).status).toBe(200);
    expect((await api("GET", `${SEARCH}?limit=50`)).status).toBe(200);
    expect((await api("GET", `${SEARCH}?limit=1`)).status).toBe(200);
  });

  it("malformed or tampered cursors are 400 on query.cursor", async () => {
    const cases: [string, string][] = [
      ["name", "garbage!"],
      ["name", "abc"],
      ["name", cursorOf("Harbor City Hawks", "tm_hch")], // no sort tag (e.g. a GET /api/teams cursor)
      ["name", cursorOf("size:1", "tm_hch")],
      ["rank", cursorOf("rank:abc", "tm_hch")],
      ["rank", cursorOf("rank:1.5", "tm_hch")],
      ["rank", cursorOf("rank:99999999999", "tm_hch")],
      ["fans", cursorOf("fans:", "tm_hch")],
      ["fans", cursorOf("fans:1e3", "tm_hch")],
      ["name", Buffer.from(JSON.stringify(["v0", "name:A", "tm_hch"])).toString("base64url")],
    ];
    for (const [sort, cursor] of cases) await bad(`sort=${sort}&cursor=${cursor}`, "query.cursor");
    // Well-formed cursors of each sort are accepted (the walk tests use real ones).
    expect((await api("GET", `${SEARCH}?sort=rank&cursor=${cursorOf("rank:null", "tm_a")}`)).status).toBe(200);
    expect((await api("GET", `${SEARCH}?sort=fans&cursor=${cursorOf("fans:-5", "tm_a")}`)).status).toBe(200);
    const teamsPage = await api("GET", "/api/teams?limit=1");
    await bad(`cursor=${teamsPage.body.nextCursor}`, "query.cursor");
  });

  it("a cursor only continues the sort it came from", async () => {
    const cursors: Record<string, string> = {};
    for (const sort of SORTS) {
      const res = await api("GET", `${SEARCH}?sort=${sort}&limit=2`);
      cursors[sort] = res.body.data.nextCursor;
      expect(typeof cursors[sort]).toBe("string");
    }
    for (const from of SORTS) {
      for (const to of SORTS) {
        const res = await api("GET", `${SEARCH}?sort=${to}&limit=2&cursor=${cursors[from]}`);
        if (from === to) expect(res.status).toBe(200);
        else {
          expect(res.status, `${from} → ${to}`).toBe(400);
          expect(errorOf(res).code).toBe("VALIDATION_ERROR");
          expect(errorOf(res).details?.[0]?.path).toBe("query.cursor");
        }
      }
    }
    // The default sort is name: a rank cursor without sort=rank is refused too.
    expect((await api("GET", `${SEARCH}?cursor=${cursors.rank}`)).status).toBe(400);
  });
});

// Ties the seed lacks (equal fanCount, equal names, unranked teams) against the search function itself, on rows
// that live only inside a transaction that is rolled back.
describe("searchTeams keyset over ties (rolled-back rows)", () => {
  class Rollback extends Error {}

  it("every sort and page size returns each tied team once, nulls last for rank", async () => {
    const tag = `zqtie${randomBytes(4).toString("hex")}`;
    const specs: { key: string; name: string; rank: number | null; fanCount: number; archived?: boolean }[] = [
      { key: "a", name: "alpha", rank: 2, fanCount: 500 },
      { key: "b", name: "alpha", rank: 2, fanCount: 500 },
      { key: "c", name: "beta", rank: null, fanCount: 500 },
      { key: "d", name: "beta", rank: 1, fanCount: 100 },
      { key: "e", name: "gamma", rank: null, fanCount: 100 },
      { key: "f", name: "alpha", rank: null, fanCount: 900 },
      { key: "g", name: "delta", rank: 2, fanCount: 100 },
      { key: "h", name: "alpha", rank: 1, fanCount: 500, archived: true },
    ];
    const outcome = await db()
      .$transaction(
        async (tx) => {
          await tx.team.createMany({
            data: specs.map((s) => ({
              id: `${tag}_${s.key}`,
              slug: `${tag}-${s.key}`,
              name: `${tag} ${s.name}`,
              leagueId: "lg_psl",
              sport: "soccer",
              rank: s.rank,
              fanCount: s.fanCount,
              archivedAt: s.archived ? new Date() : null,
            })),
          });
          const checked: string[] = [];
          for (const sort of SORTS) {
            const expected = (
              await tx.team.findMany({ where: { archivedAt: null, name: { startsWith: tag } }, orderBy: ORDER[sort], select: { id: true } })
            ).map((r) => r.id);
            expect(expected).toHaveLength(7);
            for (const limit of [1, 2, 3, 7, 8]) {
              const ids: string[] = [];
              let cursor: string | undefined;
              for (let i = 0; i < 20; i++) {
                const page = await searchTeams(tx as never, { q: tag, sort, limit, cursor } as TeamSearchQuery);
                ids.push(...page.teams.map((t) => t.id));
                if (!page.nextCursor) break;
                cursor = page.nextCursor;
              }
              expect(ids, `${sort}/${limit}`).toEqual(expected);
              checked.push(`${sort}/${limit}`);
            }
          }
          // Spot-check the orders themselves, not only agreement with Prisma.
          const rank = await searchTeams(tx as never, { q: tag, sort: "rank", limit: 50 } as TeamSearchQuery);
          expect(rank.teams.map((t) => t.id.slice(-1))).toEqual(["d", "a", "b", "g", "c", "e", "f"]);
          const fans = await searchTeams(tx as never, { q: tag, sort: "fans", limit: 50 } as TeamSearchQuery);
          expect(fans.teams.map((t) => t.id.slice(-1))).toEqual(["f", "a", "b", "c", "d", "e", "g"]);
          const name = await searchTeams(tx as never, { q: tag, sort: "name", limit: 50 } as TeamSearchQuery);
          expect(name.teams.map((t) => t.id.slice(-1))).toEqual(["a", "b", "f", "c", "d", "g", "e"]);
          throw Object.assign(new Rollback("rollback"), { checked });
        },
        { timeout: 30_000, maxWait: 10_000 },
      )
      .catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(Rollback);
    expect((outcome as { checked: string[] }).checked).toHaveLength(15);
    expect(await db().team.count({ where: { name: { startsWith: tag } } })).toBe(0);
  });
});
