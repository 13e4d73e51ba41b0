import { beforeAll, describe, expect, it } from "vitest";
import { leaguesResult, sportsCatalog } from "../../lib/core/leagues/schemas";
import { accessibilityMatrix } from "../../lib/operations/platform/schemas";
import { normalizeSport } from "../../lib/core/teams/sport";
import { api, db, errorOf, newUser, token } from "../helpers";
import { addExtraLeagues, extra, invalid } from "./leagues-fixtures";

// GET /api/leagues, GET /api/config/sports, GET /api/accessibility. The standings are in leagues-standings.test.ts;
// the seeded facts these tests rely on and the leagues they add are in leagues-fixtures.ts.

beforeAll(() => addExtraLeagues());

const SEEDED = ["lg_nfl", "lg_nba", "lg_nhl", "lg_psl"];

// ---------------------------------------------------------------------------------------------------------------

describe("GET /api/leagues", () => {
  it("lists non-archived leagues by displayOrder then name, enveloped, with branding and structure", async () => {
    const res = await api("GET", "/api/leagues");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(leaguesResult.safeParse(res.body.data).success).toBe(true);
    const leagues = res.body.data.leagues as { id: string; displayOrder: number; name: string; [k: string]: unknown }[];
    const ids = leagues.map((l) => l.id);
    expect(ids.slice(0, 4)).toEqual(SEEDED);
    expect(ids).not.toContain(extra.archived.id);
    expect(ids).toEqual(expect.arrayContaining([extra.blank.id, extra.curling.id, extra.empty.id, extra.messy.id]));
    for (let i = 1; i < leagues.length; i++) {
      const [a, b] = [leagues[i - 1]!, leagues[i]!];
      expect(a.displayOrder < b.displayOrder || (a.displayOrder === b.displayOrder && a.name <= b.name)).toBe(true);
    }
    const live = await db().league.count({ where: { archivedAt: null } });
    expect(leagues).toHaveLength(live);

    expect(leagues[0]).toEqual({
      id: "lg_nfl",
      slug: "nfl",
      name: "National Football League",
      shortName: "NFL",
      sport: "football",
      season: "2026",
      logo: "https://cdn.example.com/leagues/nfl.png",
      colors: { primary: "#013369", secondary: "#D50A0A" },
      displayOrder: 1,
      teamCount: 11,
      conferences: [
        {
          id: "conf_nfl_afc",
          name: "American Football Conference",
          divisions: [
            { id: "div_nfl_afc_east", name: "AFC East" },
            { id: "div_nfl_afc_west", name: "AFC West" },
          ],
        },
        {
          id: "conf_nfl_nfc",
          name: "National Football Conference",
          divisions: [
            { id: "div_nfl_nfc_east", name: "NFC East" },
            { id: "div_nfl_nfc_west", name: "NFC West" },
          ],
        },
      ],
      divisions: [],
      href: "/api/leagues/nfl/standings",
    });
  });

  it("team counts leave archived teams out; structure follows each league", async () => {
    const res = await api("GET", "/api/leagues");
    const byId = Object.fromEntries((res.body.data.leagues as { id: string }[]).map((l) => [l.id, l as Record<string, any>]));
    for (const id of SEEDED) {
      expect(byId[id]!.teamCount).toBe(await db().team.count({ where: { leagueId: id, archivedAt: null } }));
    }
    expect(byId.lg_nba!.conferences.map((c: { name: string; divisions: unknown[] }) => [c.name, c.divisions.length])).toEqual([
      ["Eastern Conference", 0],
      ["Western Conference", 0],
    ]);
    expect(byId.lg_nhl!.conferences.flatMap((c: { divisions: { id: string }[] }) => c.divisions.map((d) => d.id))).toHaveLength(4);
    expect(byId.lg_psl).toMatchObject({ sport: "soccer", teamCount: 8, conferences: [], divisions: [] });
  });

  it('sport is normalised and never null: "" is other, "  HOCKEY " is hockey, "Curling" is curling', async () => {
    const res = await api("GET", "/api/leagues");
    const byId = Object.fromEntries((res.body.data.leagues as { id: string; sport: string }[]).map((l) => [l.id, l]));
    expect(byId[extra.blank.id]).toMatchObject({ sport: "other", season: null, teamCount: 0, shortName: null });
    expect(byId[extra.messy.id]!.sport).toBe("hockey");
    expect(byId[extra.curling.id]!.sport).toBe("curling");
    for (const l of Object.values(byId)) expect(l.sport).toMatch(/^[a-z][a-z0-9_-]*$/);
  });

  it("?sport= filters by the normalised value", async () => {
    const hockey = await api("GET", "/api/leagues?sport=Hockey");
    expect(hockey.status).toBe(200);
    expect(hockey.body.data.leagues.map((l: { id: string }) => l.id)).toEqual(["lg_nhl", extra.messy.id]);
    const other = await api("GET", "/api/leagues?sport=other");
    expect(other.body.data.leagues.map((l: { id: string }) => l.id)).toEqual([extra.blank.id]);
    const none = await api("GET", "/api/leagues?sport=lacrosse");
    expect(none.status).toBe(200);
    expect(none.body.data.leagues).toEqual([]);
  });

  it("invalid query: empty or repeated sport, unknown keys → 400 VALIDATION_ERROR", async () => {
    for (const [q, path] of [
      ["sport=", "query.sport"],
      ["sport=a&sport=b", "query.sport"],
      ["colour=red", "query.colour"],
      [`sport=${"x".repeat(41)}`, "query.sport"],
    ] as const) {
      const res = await api("GET", `/api/leagues?${q}`);
      expect(res.status, q).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    }
  });

  it("optional auth: a valid token answers the same list; an invalid or malformed one is 401", async () => {
    const anon = await api("GET", "/api/leagues");
    const signed = await api("GET", "/api/leagues", { headers: newUser().auth });
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual(anon.body);
    for (const authorization of ["Bearer not-a-valid-token", "Basic abc", `Bearer ${token("user_expired_lg", { ttlSeconds: -60 })}`]) {
      const res = await api("GET", "/api/leagues", { headers: { authorization } });
      expect(res.status, authorization.slice(0, 12)).toBe(401);
      expect(errorOf(res).code).toBe("UNAUTHORIZED");
    }
  });

  it("other methods are 405 with Allow", async () => {
    const res = await api("POST", "/api/leagues", { json: {} });
    expect(res.status).toBe(405);
    expect(errorOf(res).code).toBe("METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toContain("GET");
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("GET /api/config/sports", () => {
  it("answers the bare { sports } derived from non-archived leagues, cacheable by clients", async () => {
    const res = await api("GET", "/api/config/sports");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["sports"]);
    expect(sportsCatalog.safeParse(res.body).success).toBe(true);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const sports = res.body.sports as { id: string; label: string; order: number; leagues: { id: string; label: string; order: number }[] }[];
    const live = await db().league.findMany({ where: { archivedAt: null } });
    // Exactly the normalised sport values of live leagues, each league once under its own sport.
    expect(sports.map((s) => s.id).sort()).toEqual([...new Set(live.map((l) => normalizeSport(l.sport)))].sort());
    const listed = sports.flatMap((s) => s.leagues.map((l) => [l.id, s.id]));
    expect(listed.map(([id]) => id).sort()).toEqual(live.map((l) => l.id).sort());
    for (const [id, sport] of listed) expect(sport).toBe(normalizeSport(live.find((l) => l.id === id)!.sport));
    expect(listed.map(([id]) => id)).not.toContain(extra.archived.id);

    // Order: the smallest displayOrder of the sport's leagues, then id; order is 1-based.
    expect(sports.map((s) => s.order)).toEqual(sports.map((_, i) => i + 1));
    const first = (s: { leagues: { id: string }[] }) => Math.min(...s.leagues.map((l) => live.find((x) => x.id === l.id)!.displayOrder));
    for (let i = 1; i < sports.length; i++) {
      const [a, b] = [sports[i - 1]!, sports[i]!];
      expect(first(a) < first(b) || (first(a) === first(b) && a.id < b.id)).toBe(true);
    }
    expect(sports.slice(0, 4).map((s) => [s.id, s.label])).toEqual([
      ["football", "Football"],
      ["basketball", "Basketball"],
      ["hockey", "Hockey"],
      ["soccer", "Soccer"],
    ]);
    const hockey = sports.find((s) => s.id === "hockey")!;
    expect(hockey.leagues).toEqual([
      { id: "lg_nhl", label: "NHL", order: 1 },
      { id: extra.messy.id, label: extra.messy.name, order: 2 },
    ]);
    expect(sports.find((s) => s.id === "other")!.leagues.map((l) => l.id)).toEqual([extra.blank.id]);
    expect(sports.find((s) => s.id === "curling")).toMatchObject({ label: "Curling", leagues: [{ id: extra.curling.id, label: "CUR", order: 1 }] });
  });

  it("optional auth: a valid token gets the same catalog; an invalid one is 401", async () => {
    const anon = await api("GET", "/api/config/sports");
    const signed = await api("GET", "/api/config/sports", { headers: newUser().auth });
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual(anon.body);
    const bad = await api("GET", "/api/config/sports", { headers: invalid });
    expect(bad.status).toBe(401);
    expect(errorOf(bad).code).toBe("UNAUTHORIZED");
    expect(bad.headers.get("cache-control")).toBe("no-store");
  });

  it("client input cannot make it fail: query strings are ignored", async () => {
    const anon = await api("GET", "/api/config/sports");
    for (const q of ["?sport=", "?x=1&x=2", "?%ZZ", `?${"a".repeat(2000)}=1`]) {
      const res = await api("GET", `/api/config/sports${q}`);
      expect(res.status, q.slice(0, 10)).toBe(200);
      expect(res.body).toEqual(anon.body);
    }
  });

  it("other methods are 405", async () => {
    expect((await api("POST", "/api/config/sports", { json: {} })).status).toBe(405);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("GET /api/accessibility", () => {
  it("answers the enveloped matrix: standards, every feature on web, iOS and Android, a contact", async () => {
    const res = await api("GET", "/api/accessibility");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(accessibilityMatrix.safeParse(res.body.data).success).toBe(true);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    const m = res.body.data;
    expect(m.standards).toContain("WCAG 2.2 AA");
    expect(m.platforms).toEqual(["web", "ios", "android"]);
    expect(m.version).toMatch(/\S/);
    expect(m.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(m.contact.email).toContain("@");
    const ids = m.features.map((f: { id: string }) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(["screen-reader", "text-scaling", "reduced-motion", "captions"]));
    for (const f of m.features) {
      expect(Object.keys(f.platforms).sort()).toEqual(["android", "ios", "web"]);
      for (const p of Object.values(f.platforms) as { support: string }[]) expect(["full", "partial", "none"]).toContain(p.support);
    }
  });

  it("is public: an invalid token changes nothing", async () => {
    const anon = await api("GET", "/api/accessibility");
    const res = await api("GET", "/api/accessibility", { headers: invalid });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(anon.body);
  });

  it("other methods are 405", async () => {
    expect((await api("PUT", "/api/accessibility", { json: {} })).status).toBe(405);
  });
});
