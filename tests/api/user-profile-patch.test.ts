import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { patch, signedIn } from "./user-profile-fixtures";

// PATCH /api/user/profile.

// Seeded teams: tm_hch and tm_fpb are the two official teams; tm_dvs is archived; the rest are ordinary.
const OFFICIAL = ["tm_hch", "tm_fpb"];
const ORDINARY = ["tm_gfg", "tm_pap", "tm_rmr", "tm_sls", "tm_irf", "tm_kpk", "tm_bsb"];
const ARCHIVED = "tm_dvs";

const freshHandle = (prefix = "Fan") => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

describe("PATCH /api/user/profile", () => {
  it("updates handle, displayName and bio, answers the profile and persists", async () => {
    const { auth, id } = await signedIn();
    const handle = freshHandle("Pat");
    const res = await patch(auth, { handle, displayName: "  Pat Fan  ", bio: "  Hawks since '98  " });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({ id, handle, displayName: "Pat Fan", bio: "Hawks since '98" });
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ handle, handleKey: handle.toLowerCase(), displayName: "Pat Fan", bio: "Hawks since '98" });
    // Only the fields sent change.
    const again = await patch(auth, { bio: "new bio" });
    expect(again.body.data).toMatchObject({ handle, displayName: "Pat Fan", bio: "new bio" });
    // GET /api/user sees the same values.
    const me = await api("GET", "/api/user", { headers: auth });
    expect(me.body.data).toMatchObject({ handle, displayName: "Pat Fan", bio: "new bio" });
  });

  it('bio "" or null clears it; 280 characters is the longest', async () => {
    const { auth, id } = await signedIn();
    expect((await patch(auth, { bio: "x".repeat(280) })).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id } })).bio).toHaveLength(280);
    const cleared = await patch(auth, { bio: "" });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.bio).toBeNull();
    await patch(auth, { bio: "back" });
    const nulled = await patch(auth, { bio: null });
    expect(nulled.body.data.bio).toBeNull();
    expect((await db().user.findUniqueOrThrow({ where: { id } })).bio).toBeNull();
    const long = await patch(auth, { bio: "x".repeat(281) });
    expect(long.status).toBe(400);
    expect(errorOf(long).details?.map((d) => d.path)).toEqual(["body.bio"]);
  });

  it.each([
    ["empty", ""],
    ["only spaces", "   "],
    ["51 characters", "n".repeat(51)],
    ["a newline", "Pat\nFan"],
    ["a number", 42],
    ["null", null],
  ])("displayName %s is 400 at body.displayName", async (_label, displayName) => {
    const { auth, id } = await signedIn();
    const res = await patch(auth, { displayName });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.map((d) => d.path)).toContain("body.displayName");
    expect((await db().user.findUniqueOrThrow({ where: { id } })).displayName).toBeNull();
  });

  it.each([
    ["a right-to-left override (U+202E)", "Pat\u202EnaF"],
    ["a left-to-right isolate (U+2066)", "\u2066Pat Fan"],
    ["a zero-width space (U+200B)", "Pat\u200BFan"],
    ["a zero-width joiner (U+200D)", "Pat\u200DFan"],
    ["a word joiner (U+2060)", "Pa\u2060t"],
    ["a soft hyphen (U+00AD)", "Pat\u00ADFan"],
    ["a BOM inside (U+FEFF)", "Pat\uFEFFFan"],
    ["a tag character (U+E0041)", "Pat\u{E0041}"],
    ["a line separator (U+2028)", "Pat\u2028Fan"],
    ["a paragraph separator (U+2029)", "Pat\u2029Fan"],
  ])("displayName with %s is 400 at body.displayName and nothing changes", async (_label, displayName) => {
    const { auth, id } = await signedIn();
    expect((await patch(auth, { displayName: "Before" })).status).toBe(200);
    const res = await patch(auth, { displayName, bio: "not written either" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: {
        code: "VALIDATION_ERROR",
        message: expect.any(String),
        details: [{ path: "body.displayName", message: expect.stringMatching(/invisible formatting/) }],
      },
    });
    expect(await db().user.findUniqueOrThrow({ where: { id } })).toMatchObject({ displayName: "Before", bio: null });
    // Onboarding takes the same profile fields and refuses the same way.
    const onboard = await api("POST", "/api/user/onboarding", { headers: auth, json: { displayName } });
    expect(onboard.status).toBe(400);
    expect(errorOf(onboard).details?.map((d) => d.path)).toEqual(["body.displayName"]);
  });

  it("display names in other scripts, with accents, emoji and ordinary spaces are accepted", async () => {
    const { auth } = await signedIn();
    for (const displayName of ["Zoë Ünal", "محمد علي", "佐藤 太郎", "Pat 🏒 Fan", "Ana\u00A0Lima"]) {
      const res = await patch(auth, { displayName });
      expect({ displayName, status: res.status }).toEqual({ displayName, status: 200 });
      expect(res.body.data.displayName).toBe(displayName);
    }
  });

  it("displayName of 50 characters (after trimming) is accepted", async () => {
    const { auth } = await signedIn();
    const res = await patch(auth, { displayName: `  ${"d".repeat(50)}  ` });
    expect(res.status).toBe(200);
    expect(res.body.data.displayName).toBe("d".repeat(50));
  });

  it.each([["ab"], ["a".repeat(31)], ["has space"], ["dash-ed"], ["émile"], [""]])("malformed handle %j is 400 at body.handle", async (handle) => {
    const { auth, id } = await signedIn();
    const res = await patch(auth, { handle });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.map((d) => d.path)).toEqual(["body.handle"]);
    expect((await db().user.findUniqueOrThrow({ where: { id } })).handle).toBeNull();
  });

  it("a handle held by another user, in any case, is 409 USERNAME_TAKEN", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const handle = freshHandle("Taken");
    expect((await patch(a.auth, { handle })).status).toBe(200);
    for (const candidate of [handle, handle.toLowerCase(), handle.toUpperCase()]) {
      const res = await patch(b.auth, { handle: candidate });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        error: { code: "USERNAME_TAKEN", message: expect.any(String), details: [{ path: "body.handle", message: "Taken" }] },
      });
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: b.id } })).handle).toBeNull();
    // check-username agrees.
    const check = await api("GET", `/api/user/check-username?username=${handle.toLowerCase()}`, {
      headers: { "x-forwarded-for": `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    });
    expect(check.body).toEqual({ available: false });
  });

  it("changing only the case of your own handle is allowed", async () => {
    const { auth, id } = await signedIn();
    const handle = freshHandle("case");
    expect((await patch(auth, { handle })).status).toBe(200);
    const upper = handle.toUpperCase();
    const res = await patch(auth, { handle: upper });
    expect(res.status).toBe(200);
    expect(res.body.data.handle).toBe(upper);
    expect(await db().user.findUniqueOrThrow({ where: { id } })).toMatchObject({ handle: upper, handleKey: handle.toLowerCase() });
    // Re-sending the same handle is fine too.
    expect((await patch(auth, { handle: upper })).status).toBe(200);
  });

  it("a new handle frees the old one for others", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const first = freshHandle("first");
    expect((await patch(a.auth, { handle: first })).status).toBe(200);
    expect((await patch(a.auth, { handle: freshHandle("second") })).status).toBe(200);
    const res = await patch(b.auth, { handle: first.toLowerCase() });
    expect(res.status).toBe(200);
    expect(res.body.data.handle).toBe(first.toLowerCase());
  });

  it.each(["admin", "Support", "STAFF", "official"])("reserved handle %s is 409 USERNAME_TAKEN", async (handle) => {
    const { auth, id } = await signedIn();
    const res = await patch(auth, { handle });
    expect(res.status).toBe(409);
    expect(errorOf(res)).toEqual({
      code: "USERNAME_TAKEN",
      message: expect.stringContaining("reserved"),
      details: [{ path: "body.handle", message: "Reserved" }],
    });
    expect((await db().user.findUniqueOrThrow({ where: { id } })).handleKey).toBeNull();
  });

  it.each([
    "admin_",
    "Admin_2026",
    "support1",
    "Support_1",
    "0fficial",
    "officia1",
    "adm1n",
    "4drnin",
    "a_d_m_i_n",
    "Adm1n_Team",
    "m0derat0r",
    "5taff",
    "staff_picks",
    "support_team",
    "SupportTeam",
    "HelpDesk",
    "he1p",
    "mod_jane",
    "r00t",
    "ap1",
    "the_admin",
    "real_0fficial",
    "officialReds",
    "adminJoe",
    "system_bot",
    "Verified_Fan",
    "t3am",
  ])("staff-like handle %s (prefixes, look-alikes, underscores, trailing digits) is reserved: 409, and check-username says unavailable", async (handle) => {
    const { auth, id } = await signedIn();
    const res = await patch(auth, { handle });
    expect(res.status).toBe(409);
    expect(errorOf(res)).toEqual({
      code: "USERNAME_TAKEN",
      message: expect.stringContaining("reserved"),
      details: [{ path: "body.handle", message: "Reserved" }],
    });
    expect((await db().user.findUniqueOrThrow({ where: { id } })).handleKey).toBeNull();
    const check = await api("GET", `/api/user/check-username?username=${handle}`, {
      headers: { "x-forwarded-for": `10.251.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    });
    expect(check.body).toEqual({ available: false });
  });

  it.each([
    "supporter_1",
    "Stafford_Rangers",
    "helpful_hank",
    "rooted_in_reds",
    "teamwork_fan",
    "modern_fan",
    "badminton_ace",
    "go_team_go",
    "Modi_Fan",
    "systematic_sam",
  ])("ordinary handle %s that merely resembles a reserved word is allowed", async (base) => {
    const { auth } = await signedIn();
    // Suffixed so parallel runs never collide; the suffix is letters, so it cannot change what the handle folds to.
    const handle = `${base}_${
      randomUUID()
        .replace(/[^a-f]/g, "")
        .slice(0, 6) || "x"
    }`;
    const res = await patch(auth, { handle });
    expect({ handle, status: res.status }).toEqual({ handle, status: 200 });
  });

  it("a user keeps a handle they already hold even when it is reserved today", async () => {
    const { auth, id } = await signedIn();
    const handle = `Support_${randomUUID().replace(/-/g, "").slice(0, 8)}`;
    await db().user.update({ where: { id }, data: { handle, handleKey: handle.toLowerCase() } });
    expect((await patch(auth, { handle, displayName: "Kept" })).status).toBe(200);
    expect((await patch(auth, { handle: handle.toUpperCase() })).status).toBe(200);
    const other = await signedIn();
    expect((await patch(other.auth, { handle: `Support_${randomUUID().replace(/-/g, "").slice(0, 8)}` })).status).toBe(409);
  });

  it("eight users racing for one handle: exactly one wins, the rest get 409 USERNAME_TAKEN", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => signedIn()));
    const handle = freshHandle("Race");
    const results = await Promise.all(users.map((u, i) => patch(u.auth, { handle: i % 2 ? handle.toUpperCase() : handle })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(errorOf(r).code).toBe("USERNAME_TAKEN");
    const holders = await db().user.findMany({ where: { handleKey: handle.toLowerCase() } });
    expect(holders).toHaveLength(1);
    const winner = users[results.findIndex((r) => r.status === 200)]!;
    expect(holders[0]!.id).toBe(winner.id);
  });

  it("favoriteTeamIds replaces the list in the given order", async () => {
    const { auth, id } = await signedIn();
    const first = await patch(auth, { favoriteTeamIds: ["tm_rmr", "tm_hch", "tm_gfg"] });
    expect(first.status).toBe(200);
    expect(first.body.data.favoriteTeams.map((f: { id: string }) => f.id)).toEqual(["tm_rmr", "tm_hch", "tm_gfg"]);
    expect(first.body.data.favoriteTeams.every((f: { team: unknown }) => f.team !== null)).toBe(true);
    const second = await patch(auth, { favoriteTeamIds: ["tm_gfg", "tm_sls"] });
    expect(second.body.data.favoriteTeams.map((f: { id: string }) => f.id)).toEqual(["tm_gfg", "tm_sls"]);
    const rows = await db().favoriteTeam.findMany({ where: { userId: id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => [r.teamId, r.position])).toEqual([
      ["tm_gfg", 0],
      ["tm_sls", 1],
    ]);
    const cleared = await patch(auth, { favoriteTeamIds: [] });
    expect(cleared.body.data.favoriteTeams).toEqual([]);
    expect(await db().favoriteTeam.count({ where: { userId: id } })).toBe(0);
  });

  it("five ordinary teams plus the official ones are allowed; official teams do not count", async () => {
    const { auth, id } = await signedIn();
    const ids = [OFFICIAL[0]!, ...ORDINARY.slice(0, 5), OFFICIAL[1]!];
    const res = await patch(auth, { favoriteTeamIds: ids });
    expect(res.status).toBe(200);
    expect(res.body.data.favoriteTeams.map((f: { id: string }) => f.id)).toEqual(ids);
    expect(await db().favoriteTeam.count({ where: { userId: id } })).toBe(7);
  });

  it("a sixth ordinary team is 409 FAVORITE_TEAMS_LIMIT and the old list stays", async () => {
    const { auth, id } = await signedIn();
    expect((await patch(auth, { favoriteTeamIds: ["tm_kpk"] })).status).toBe(200);
    const res = await patch(auth, { favoriteTeamIds: [...ORDINARY.slice(0, 6), ...OFFICIAL] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: "FAVORITE_TEAMS_LIMIT", message: expect.any(String) } });
    const rows = await db().favoriteTeam.findMany({ where: { userId: id } });
    expect(rows.map((r) => r.teamId)).toEqual(["tm_kpk"]);
  });

  it("unknown and archived team ids are 400 naming each index; nothing changes", async () => {
    const { auth, id } = await signedIn();
    expect((await patch(auth, { favoriteTeamIds: ["tm_kpk"] })).status).toBe(200);
    const res = await patch(auth, { favoriteTeamIds: ["tm_gfg", "tm_nope", ARCHIVED], displayName: "Changed" });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.map((d) => d.path)).toEqual(["body.favoriteTeamIds.1", "body.favoriteTeamIds.2"]);
    const row = await db().user.findUniqueOrThrow({ where: { id }, include: { favoriteTeams: true } });
    expect(row.displayName).toBeNull();
    expect(row.favoriteTeams.map((f) => f.teamId)).toEqual(["tm_kpk"]);
  });

  it("duplicate ids are 400 naming the repeated index", async () => {
    const { auth } = await signedIn();
    const res = await patch(auth, { favoriteTeamIds: ["tm_gfg", "tm_pap", "tm_gfg"] });
    expect(res.status).toBe(400);
    expect(errorOf(res).details?.map((d) => d.path)).toEqual(["body.favoriteTeamIds.2"]);
  });

  it("a wrongly typed favoriteTeamIds is 400", async () => {
    const { auth } = await signedIn();
    for (const favoriteTeamIds of ["tm_gfg", [1], [""], null, Array.from({ length: 26 }, (_, i) => `tm_${i}`)]) {
      const res = await patch(auth, { favoriteTeamIds });
      expect(res.status).toBe(400);
      expect(errorOf(res).details?.[0]?.path).toMatch(/^body\.favoriteTeamIds/);
    }
  });

  it("the whole patch is one transaction: a taken handle leaves favorites and name untouched", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const handle = freshHandle("atomic");
    expect((await patch(a.auth, { handle })).status).toBe(200);
    expect((await patch(b.auth, { favoriteTeamIds: ["tm_kpk"], displayName: "Before" })).status).toBe(200);
    const res = await patch(b.auth, { handle, displayName: "After", favoriteTeamIds: ["tm_gfg", "tm_pap"] });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("USERNAME_TAKEN");
    const row = await db().user.findUniqueOrThrow({ where: { id: b.id }, include: { favoriteTeams: true } });
    expect(row.displayName).toBe("Before");
    expect(row.favoriteTeams.map((f) => f.teamId)).toEqual(["tm_kpk"]);
  });

  it("an unknown field is 400 naming it, and nothing is written", async () => {
    const { auth, id } = await signedIn();
    const res = await patch(auth, { displayName: "Pat", avatarUrl: "https://evil.example.com/x.png" });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: "body.avatarUrl", message: "Unknown field" }]);
    expect((await db().user.findUniqueOrThrow({ where: { id } })).displayName).toBeNull();
  });

  it("an empty object, a non-object and a missing body are 400", async () => {
    const { auth } = await signedIn();
    for (const json of [{}, [], "x"]) {
      const res = await patch(auth, json);
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
    const empty = await api("PATCH", "/api/user/profile", { headers: auth });
    expect(empty.status).toBe(400);
  });

  it("without a token is 401", async () => {
    const res = await patch({}, { displayName: "x" });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });
});
