import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function signedIn() {
  const u = newUser();
  const res = await api("GET", "/api/user", { headers: u.auth });
  expect(res.status).toBe(200);
  return { ...u, id: await userIdOf(u.sub) };
}

describe("GET /api/user/teams", () => {
  it("answers a bare { joinedTeamIds, followedTeamIds }, independent lists, oldest first, no stars", async () => {
    const { auth, id } = await signedIn();
    const t0 = Date.parse("2026-01-01T00:00:00.000Z");
    await db().teamMember.createMany({
      data: [
        { userId: id, teamId: "tm_rmr", createdAt: new Date(t0 + 2000) },
        { userId: id, teamId: "tm_hch", createdAt: new Date(t0) },
      ],
    });
    await db().teamFollow.createMany({
      data: [
        { userId: id, teamId: "tm_gfg", createdAt: new Date(t0 + 1000) },
        { userId: id, teamId: "tm_hch", createdAt: new Date(t0 + 5000) },
        { userId: id, teamId: "tm_pap", createdAt: new Date(t0) },
      ],
    });
    await db().starredTeam.create({ data: { userId: id, teamId: "tm_kpk" } });
    // Another user's rows do not leak in.
    const other = await signedIn();
    await db().teamMember.create({ data: { userId: other.id, teamId: "tm_sls" } });

    const res = await api("GET", "/api/user/teams", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ joinedTeamIds: ["tm_hch", "tm_rmr"], followedTeamIds: ["tm_pap", "tm_gfg", "tm_hch"] });
  });

  it("a new user has empty lists", async () => {
    const { auth } = await signedIn();
    const res = await api("GET", "/api/user/teams", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ joinedTeamIds: [], followedTeamIds: [] });
  });

  it("without a token is 401", async () => {
    const res = await api("GET", "/api/user/teams");
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });
});

describe("GET /api/user/completed-quests", () => {
  const QUESTS = ["q_daily_checkin", "q_daily_prediction", "q_follow_three", "q_complete_profile", "q_hawks_superfan"];

  it("lists completions with their quest, newest first, keyset-paginated", async () => {
    const { auth, id } = await signedIn();
    const t0 = Date.parse("2026-04-01T10:00:00.000Z");
    // Two completions share a timestamp: questId (desc) breaks the tie.
    const stamps = [0, 3000, 1000, 3000, 2000];
    await db().questProgress.createMany({
      data: QUESTS.map((questId, i) => ({ userId: id, questId, periodKey: "once", completedAt: new Date(t0 + stamps[i]!) })),
    });
    await db().questProgress.create({ data: { userId: id, questId: "q_follow_three", periodKey: "2026-01-01" } }); // started, not completed: not listed
    const other = await signedIn();
    await db().questProgress.create({ data: { userId: other.id, questId: "q_daily_checkin", periodKey: "once", completedAt: new Date() } });

    const expected = QUESTS.map((q, i) => ({ q, at: t0 + stamps[i]! }))
      .sort((a, b) => b.at - a.at || (a.q < b.q ? 1 : -1))
      .map((x) => x.q);

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await api("GET", `/api/user/completed-quests?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      sizes.push(res.body.data.quests.length);
      seen.push(...res.body.data.quests.map((q: { questId: string }) => q.questId));
      cursor = res.body.data.nextCursor;
      if (!cursor) break;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(expected);

    const all = await api("GET", "/api/user/completed-quests", { headers: auth });
    expect(all.body.data.nextCursor).toBeUndefined();
    const checkin = all.body.data.quests.find((q: { questId: string }) => q.questId === "q_daily_checkin");
    expect(checkin).toEqual({
      questId: "q_daily_checkin",
      slug: "daily-check-in",
      title: "Daily check-in",
      description: "Open the app and check in once a day.",
      teamId: null,
      repReward: 10,
      isDaily: true,
      completedAt: new Date(t0).toISOString(),
    });
  });

  it("a user with no completions gets an empty list", async () => {
    const { auth } = await signedIn();
    const res = await api("GET", "/api/user/completed-quests", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { quests: [] } });
  });

  it.each([["?limit=0"], ["?limit=51"], ["?limit=1.5"], ["?cursor=%%%"], ["?cursor=WyJ2MSIsIngiLCJ5Il0"], ["?page=2"]])("%s is 400", async (qs) => {
    const { auth } = await signedIn();
    const res = await api("GET", `/api/user/completed-quests${qs}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("without a token is 401", async () => {
    expect((await api("GET", "/api/user/completed-quests")).status).toBe(401);
  });
});

describe("GET /api/user/nfts/pending", () => {
  it("lists the caller's pending and minting items, oldest first, paginated; minted and failed are left out", async () => {
    const { auth, id } = await signedIn();
    const t0 = Date.parse("2026-05-01T00:00:00.000Z");
    const rows = [
      { name: "c", status: "pending" as const, at: 2000 },
      { name: "a", status: "minting" as const, at: 0 },
      { name: "done", status: "minted" as const, at: 500 },
      { name: "b", status: "pending" as const, at: 1000 },
      { name: "bad", status: "failed" as const, at: 1500 },
    ];
    await db().nftMint.createMany({
      data: rows.map((r) => ({
        userId: id,
        itemType: "card",
        itemId: `card_${r.name}`,
        name: r.name,
        status: r.status,
        createdAt: new Date(t0 + r.at),
        imageUrl: r.name === "a" ? "https://cdn.example.com/a.png" : null,
      })),
    });
    const other = await signedIn();
    await db().nftMint.create({ data: { userId: other.id, itemType: "card", itemId: "x", name: "theirs" } });

    const res = await api("GET", "/api/user/nfts/pending", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.nextCursor).toBeUndefined();
    expect(res.body.data.nfts.map((n: { name: string }) => n.name)).toEqual(["a", "b", "c"]);
    expect(res.body.data.nfts[0]).toEqual({
      id: expect.any(String),
      itemType: "card",
      itemId: "card_a",
      name: "a",
      imageUrl: "https://cdn.example.com/a.png",
      status: "minting",
      createdAt: new Date(t0).toISOString(),
    });

    const p1 = await api("GET", "/api/user/nfts/pending?limit=2", { headers: auth });
    expect(p1.body.data.nfts.map((n: { name: string }) => n.name)).toEqual(["a", "b"]);
    expect(p1.body.data.nextCursor).toEqual(expect.any(String));
    const p2 = await api("GET", `/api/user/nfts/pending?limit=2&cursor=${p1.body.data.nextCursor}`, { headers: auth });
    expect(p2.body.data.nfts.map((n: { name: string }) => n.name)).toEqual(["c"]);
    expect(p2.body.data.nextCursor).toBeUndefined();
  });

  it("an empty queue is an empty list", async () => {
    const { auth } = await signedIn();
    const res = await api("GET", "/api/user/nfts/pending", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { nfts: [] } });
  });

  it("a bad limit or cursor is 400; no token is 401", async () => {
    const { auth } = await signedIn();
    for (const qs of ["?limit=0", "?limit=101", "?cursor=WyJ2MSIsIjEiLCJub3QtYS11dWlkIl0"]) {
      const res = await api("GET", `/api/user/nfts/pending${qs}`, { headers: auth });
      expect(res.status, qs).toBe(400);
    }
    expect((await api("GET", "/api/user/nfts/pending")).status).toBe(401);
  });
});

describe("/api/user/terms", () => {
  it("GET is public and names the current version", async () => {
    const res = await api("GET", "/api/user/terms");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { currentVersion: expect.any(String) } });
    expect(res.body.data.currentVersion.length).toBeGreaterThan(0);
  });

  it("POST with the current version records acceptance; re-accepting keeps the first time", async () => {
    const { auth, id } = await signedIn();
    const version = (await api("GET", "/api/user/terms")).body.data.currentVersion;
    const res = await api("POST", "/api/user/terms", { headers: auth, json: { version } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { version, acceptedAt: expect.stringMatching(ISO) } });
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row.ugcTermsVersion).toBe(version);
    expect(row.ugcTermsAcceptedAt?.toISOString()).toBe(res.body.data.acceptedAt);
    await new Promise((r) => setTimeout(r, 15));
    const again = await api("POST", "/api/user/terms", { headers: auth, json: { version } });
    expect(again.body).toEqual(res.body);
    const profile = await api("GET", "/api/user/profile", { headers: auth });
    expect(profile.body.data).toMatchObject({ ugcTermsVersion: version, currentTermsVersion: version, termsAccepted: true });
    expect((await api("GET", "/api/user", { headers: auth })).body.data.ugcTermsVersion).toBe(version);
  });

  it("moving from an old version to the current one updates both fields", async () => {
    const { auth, id } = await signedIn();
    const old = new Date("2025-01-01T00:00:00.000Z");
    await db().user.update({ where: { id }, data: { ugcTermsVersion: "2025-01", ugcTermsAcceptedAt: old } });
    const version = (await api("GET", "/api/user/terms")).body.data.currentVersion;
    const res = await api("POST", "/api/user/terms", { headers: auth, json: { version } });
    expect(res.status).toBe(200);
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row.ugcTermsVersion).toBe(version);
    expect(row.ugcTermsAcceptedAt!.getTime()).toBeGreaterThan(old.getTime());
  });

  it("another version is 409 TERMS_VERSION_MISMATCH naming the current one; nothing changes", async () => {
    const { auth, id } = await signedIn();
    const version = (await api("GET", "/api/user/terms")).body.data.currentVersion;
    const res = await api("POST", "/api/user/terms", { headers: auth, json: { version: `${version}-old` } });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("TERMS_VERSION_MISMATCH");
    expect(errorOf(res).message).toContain(`"${version}"`);
    expect(errorOf(res).details).toEqual([{ path: "body.version", message: expect.stringContaining(version) }]);
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ ugcTermsVersion: null, ugcTermsAcceptedAt: null });
  });

  it("invalid bodies are 400 naming the field", async () => {
    const { auth } = await signedIn();
    const cases: [unknown, string][] = [
      [{}, "body.version"],
      [{ version: "" }, "body.version"],
      [{ version: 1 }, "body.version"],
      [{ version: "2026-01", accepted: true }, "body.accepted"],
    ];
    for (const [json, path] of cases) {
      const res = await api("POST", "/api/user/terms", { headers: auth, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).details?.map((d) => d.path)).toEqual([path]);
    }
  });

  it("POST without a token is 401", async () => {
    const res = await api("POST", "/api/user/terms", { json: { version: "2026-01" } });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });
});

describe("strict bodies on the remaining writes", () => {
  it("sync-idp rejects any body field", async () => {
    const { auth } = await signedIn();
    const res = await api("POST", "/api/user/sync-idp", { headers: auth, json: { force: true } });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: "body.force", message: "Unknown field" }]);
  });

  it("the user routes answer 405 with Allow for undeclared methods", async () => {
    const { auth } = await signedIn();
    for (const [method, path] of [
      ["POST", "/api/user/teams"],
      ["DELETE", "/api/user/profile"],
      ["GET", "/api/user/onboarding"],
      ["POST", "/api/user/isOnboarded"],
      ["PUT", "/api/user/terms"],
      ["POST", "/api/user/nfts/pending"],
      ["POST", "/api/user/completed-quests"],
      ["GET", "/api/user/sync-idp"],
    ] as const) {
      const res = await api(method, path, { headers: auth });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(errorOf(res).code).toBe("METHOD_NOT_ALLOWED");
    }
  });
});
