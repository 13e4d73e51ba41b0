import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { hawks, ISO, LIST, one, signedUp, starCount } from "./stars-fixtures";

// Starred teams: the cap of 50 (PUT and the merge alike) and POST /api/me/starred-teams (merge).

const CAP = 50;

/** Stars `n` ids directly in the database (arrangement only). */
async function seedStars(userId: string, n: number, prefix = "seed") {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}_${String(i).padStart(3, "0")}`);
  await db().starredTeam.createMany({ data: ids.map((teamId) => ({ userId, teamId, name: `Club ${teamId}` })) });
  return ids;
}

describe("starred-teams cap (50)", () => {
  it("the 50th star succeeds and the 51st new id is 409 STARRED_TEAMS_LIMIT", async () => {
    const { auth, userId } = await signedUp();
    await seedStars(userId, CAP - 1);
    const fiftieth = await api("PUT", one("prov_50th"), { headers: auth });
    expect(fiftieth.status).toBe(200);
    expect(await starCount(userId)).toBe(CAP);
    const over = await api("PUT", one("prov_51st"), { headers: auth, json: { name: "Over" } });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ success: false, error: { code: "STARRED_TEAMS_LIMIT", message: expect.any(String) } });
    expect(await starCount(userId)).toBe(CAP);
    expect(await db().starredTeam.findUnique({ where: { userId_teamId: { userId, teamId: "prov_51st" } } })).toBeNull();
  });

  it("at the cap an already-starred id still refreshes; after a DELETE a new one succeeds", async () => {
    const { auth, userId } = await signedUp();
    const ids = await seedStars(userId, CAP);
    expect((await api("PUT", one("prov_new"), { headers: auth })).status).toBe(409);

    const refresh = await api("PUT", one(ids[7]!), { headers: auth, json: { name: "Renamed" } });
    expect(refresh.status).toBe(200);
    expect(refresh.body.team).toMatchObject({ id: ids[7], name: "Renamed", slug: null });
    const plain = await api("PUT", one(ids[8]!), { headers: auth });
    expect(plain.status).toBe(200);
    expect(plain.body.team).toMatchObject({ id: ids[8], name: `Club ${ids[8]}` });

    expect((await api("DELETE", one(ids[0]!), { headers: auth })).body).toEqual({ starred: false });
    const now = await api("PUT", one("prov_new"), { headers: auth });
    expect(now.status).toBe(200);
    expect(now.body.team.id).toBe("prov_new");
    expect(await starCount(userId)).toBe(CAP);
    const again = await api("PUT", one("prov_newer"), { headers: auth });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("STARRED_TEAMS_LIMIT");
    const list = await api("GET", LIST, { headers: auth });
    expect(list.body.data.teams).toHaveLength(CAP);
  });

  it("the cap is per user", async () => {
    const full = await signedUp();
    await seedStars(full.userId, CAP);
    const other = newUser();
    const res = await api("PUT", one("prov_free"), { headers: other.auth });
    expect(res.status).toBe(200);
  });

  it("100 concurrent PUTs of distinct ids: exactly 50 starred, 50 refused", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => api("PUT", one(`race_${i}`), { headers: auth, json: { name: `Race ${i}` } })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(CAP);
    expect(refused).toHaveLength(100 - CAP);
    for (const r of refused) expect(errorOf(r).code).toBe("STARRED_TEAMS_LIMIT");
    expect(await starCount(userId)).toBe(CAP);
    const starredIds = (await db().starredTeam.findMany({ where: { userId }, select: { teamId: true } })).map((s) => s.teamId).sort();
    expect(starredIds).toEqual(ok.map((r) => r.body.team.id).sort());
  });

  it("a merge racing with PUTs never passes the cap", async () => {
    const { auth, userId } = await signedUp();
    await seedStars(userId, 10);
    const mergeTeams = Array.from({ length: 40 }, (_, i) => ({ id: `merge_${i}` }));
    const [merge, ...puts] = await Promise.all([
      api("POST", LIST, { headers: auth, json: { teams: mergeTeams } }),
      ...Array.from({ length: 40 }, (_, i) => api("PUT", one(`put_${i}`), { headers: auth })),
    ]);
    expect(merge!.status).toBe(200);
    const putOk = puts.filter((r) => r.status === 200).length;
    const putRefused = puts.filter((r) => r.status === 409 && errorOf(r).code === "STARRED_TEAMS_LIMIT").length;
    expect(putOk + putRefused).toBe(40);
    expect(merge!.body.added + merge!.body.skipped).toBe(40);
    expect(10 + merge!.body.added + putOk).toBe(CAP);
    expect(await starCount(userId)).toBe(CAP);
  });

  it("concurrent merges never pass the cap", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, k) => api("POST", LIST, { headers: auth, json: { teams: Array.from({ length: 20 }, (_, i) => ({ id: `m${k}_${i}` })) } })),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(results.reduce((n, r) => n + r.body.added, 0)).toBe(CAP);
    expect(results.reduce((n, r) => n + r.body.skipped, 0)).toBe(80 - CAP);
    expect(await starCount(userId)).toBe(CAP);
  });
});

describe("POST /api/me/starred-teams (merge)", () => {
  it("stars new ids and answers bare { teams, added, skipped, rejected }", async () => {
    const { auth, sub } = newUser();
    const t = await hawks();
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "prov_m1", slug: "m1", name: "M1", logo: "l1" },
          { id: "tm_hch", name: "Fake" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["added", "rejected", "skipped", "teams"]);
    expect(res.body.added).toBe(2);
    expect(res.body.skipped).toBe(0);
    expect(res.body.rejected).toEqual([]);
    const byId = Object.fromEntries(res.body.teams.map((x: { id: string }) => [x.id, x]));
    expect(res.body.teams).toHaveLength(2);
    expect(byId.prov_m1).toEqual({ id: "prov_m1", slug: "m1", name: "M1", logo: "l1", source: null, providerId: null, starredAt: expect.stringMatching(ISO) });
    expect(byId.tm_hch).toEqual({
      id: "tm_hch",
      slug: "harbor-city-hawks",
      name: "Harbor City Hawks",
      logo: t.logo,
      source: "provider",
      providerId: "prov_101",
      starredAt: expect.stringMatching(ISO),
    });
    const list = await api("GET", LIST, { headers: auth });
    expect(list.body.data.teams).toEqual(res.body.teams);
    expect(await starCount(await userIdOf(sub))).toBe(2);
  });

  it("is additive: existing stars stay, existing ids refresh only keys sent and keep starredAt", async () => {
    const { auth, sub } = newUser();
    const a = await api("PUT", one("prov_a"), { headers: auth, json: { slug: "a", name: "A", logo: "la" } });
    const b = await api("PUT", one("prov_b"), { headers: auth, json: { slug: "b", name: "B", logo: "lb" } });
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "prov_a", name: "A2" },
          { id: "prov_c", name: "C" },
          { id: "prov_b", logo: null },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 1, skipped: 0, rejected: [] });
    const byId = Object.fromEntries(res.body.teams.map((x: { id: string }) => [x.id, x]));
    expect(Object.keys(byId).sort()).toEqual(["prov_a", "prov_b", "prov_c"]);
    expect(byId.prov_a).toEqual({ ...a.body.team, name: "A2" });
    expect(byId.prov_b).toEqual({ ...b.body.team, logo: null });
    expect(byId.prov_c).toMatchObject({ slug: null, name: "C", logo: null, source: null, providerId: null });
    expect(await starCount(await userIdOf(sub))).toBe(3);
  });

  it("an empty list changes nothing", async () => {
    const { auth } = newUser();
    const a = await api("PUT", one("prov_a"), { headers: auth });
    const res = await api("POST", LIST, { headers: auth, json: { teams: [] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ teams: [a.body.team], added: 0, skipped: 0, rejected: [] });
  });

  it("stars new ids until the cap and reports the rest as skipped / over_cap", async () => {
    const { auth, userId } = await signedUp();
    const ids = await seedStars(userId, CAP - 2);
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "new_0" },
          { id: ids[0], name: "Refreshed" },
          { id: "new_1" },
          { id: "new_2" },
          { id: ids[1], name: "Refreshed too" },
          { id: "new_3", name: "N3" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.added).toBe(2);
    expect(res.body.skipped).toBe(2);
    expect(res.body.rejected).toEqual([
      { index: 3, id: "new_2", reason: "over_cap" },
      { index: 5, id: "new_3", reason: "over_cap" },
    ]);
    expect(res.body.teams).toHaveLength(CAP);
    const ids2 = res.body.teams.map((x: { id: string }) => x.id);
    expect(ids2).toContain("new_0");
    expect(ids2).toContain("new_1");
    expect(ids2).not.toContain("new_2");
    expect(ids2).not.toContain("new_3");
    // Existing ids refresh even past the cap.
    const byId = Object.fromEntries(res.body.teams.map((x: { id: string }) => [x.id, x]));
    expect(byId[ids[0]!].name).toBe("Refreshed");
    expect(byId[ids[1]!].name).toBe("Refreshed too");
    expect(await starCount(userId)).toBe(CAP);

    const full = await api("POST", LIST, { headers: auth, json: { teams: [{ id: "late" }] } });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ added: 0, skipped: 1, rejected: [{ index: 0, id: "late", reason: "over_cap" }] });
    expect(await starCount(userId)).toBe(CAP);
  });

  it("a batch longer than the cap stars exactly 50 for a new user", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, { headers: auth, json: { teams: Array.from({ length: 60 }, (_, i) => ({ id: `bulk_${i}` })) } });
    expect(res.status).toBe(200);
    expect(res.body.added).toBe(CAP);
    expect(res.body.skipped).toBe(10);
    expect(res.body.rejected).toEqual(Array.from({ length: 10 }, (_, i) => ({ index: 50 + i, id: `bulk_${50 + i}`, reason: "over_cap" })));
    expect(res.body.teams).toHaveLength(CAP);
    expect(await starCount(await userIdOf(sub))).toBe(CAP);
  });

  it("rejects malformed items as invalid (with their index) without failing the batch", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { slug: "no-id" }, // 0 missing id
          { id: 42 }, // 1 id not a string
          { id: "prov_ok" }, // 2 valid
          { id: "prov_badname", name: 7 }, // 3 bad snapshot type
          { id: "prov_extra", color: "red" }, // 4 unknown key
          null, // 5
          "prov_string", // 6
          { id: "" }, // 7 empty id
          { id: "x".repeat(129) }, // 8 too long
          { id: "has space" }, // 9 whitespace
          { id: "prov_ok2", logo: null }, // 10 valid
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.added).toBe(2);
    expect(res.body.skipped).toBe(0);
    expect(res.body.rejected).toEqual([
      { index: 0, id: null, reason: "invalid" },
      { index: 1, id: null, reason: "invalid" },
      { index: 3, id: "prov_badname", reason: "invalid" },
      { index: 4, id: "prov_extra", reason: "invalid" },
      { index: 5, id: null, reason: "invalid" },
      { index: 6, id: null, reason: "invalid" },
      { index: 7, id: "", reason: "invalid" },
      { index: 8, id: "x".repeat(129), reason: "invalid" },
      { index: 9, id: "has space", reason: "invalid" },
    ]);
    expect(res.body.teams.map((x: { id: string }) => x.id).sort()).toEqual(["prov_ok", "prov_ok2"]);
    const userId = await userIdOf(sub);
    expect((await db().starredTeam.findMany({ where: { userId }, select: { teamId: true } })).map((s) => s.teamId).sort()).toEqual(["prov_ok", "prov_ok2"]);
  });

  it("invalid items do not use up the cap and mix with over_cap in index order", async () => {
    const { auth, userId } = await signedUp();
    await seedStars(userId, CAP - 1);
    const res = await api("POST", LIST, {
      headers: auth,
      json: { teams: [{ id: 1 }, { id: "fits" }, { id: "bad", slug: 3 }, { id: "past" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      added: 1,
      skipped: 1,
      rejected: [
        { index: 0, id: null, reason: "invalid" },
        { index: 2, id: "bad", reason: "invalid" },
        { index: 3, id: "past", reason: "over_cap" },
      ],
    });
    expect(await starCount(userId)).toBe(CAP);
  });

  it("a repeated id in one batch is starred once; later keys refine it", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "dup", slug: "d", name: "D1" },
          { id: "dup", name: "D2" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 1, skipped: 0, rejected: [] });
    expect(res.body.teams).toEqual([{ id: "dup", slug: "d", name: "D2", logo: null, source: null, providerId: null, starredAt: expect.stringMatching(ISO) }]);
    expect(await starCount(await userIdOf(sub))).toBe(1);
  });

  it.each([
    ["teams missing", {}, "body.teams"],
    ["teams not an array", { teams: { id: "x" } }, "body.teams"],
    ["teams a string", { teams: "tm_hch" }, "body.teams"],
    ["teams null", { teams: null }, "body.teams"],
  ])("%s is 400 VALIDATION_ERROR", async (_label, json, path) => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, { headers: auth, json });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toContain(path);
    expect(await starCount(await userIdOf(sub))).toBe(0);
  });

  it("an unknown top-level key, a non-object body or no body is 400", async () => {
    const { auth } = newUser();
    const extra = await api("POST", LIST, { headers: auth, json: { teams: [], replace: true } });
    expect(extra.status).toBe(400);
    expect(errorOf(extra).code).toBe("VALIDATION_ERROR");
    const arr = await api("POST", LIST, { headers: auth, json: [{ id: "x" }] });
    expect(arr.status).toBe(400);
    expect(errorOf(arr).code).toBe("VALIDATION_ERROR");
    const none = await api("POST", LIST, { headers: auth });
    expect(none.status).toBe(400);
    expect(errorOf(none).code).toBe("VALIDATION_ERROR");
  });

  it("more than 200 items is 400", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, { headers: auth, json: { teams: Array.from({ length: 201 }, (_, i) => ({ id: `t${i}` })) } });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toEqual(["body.teams"]);
    expect(await starCount(await userIdOf(sub))).toBe(0);
  });
});
