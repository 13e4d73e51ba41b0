import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, token } from "../helpers";
import { patch, signedIn } from "./user-profile-fixtures";

// GET /api/user/profile and POST /api/user/sync-idp; PATCH /api/user/profile is in user-profile-patch.test.ts.

const standIn = inject("fixtures").clerk!.url!;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const profileOf = async (auth: Record<string, string>) => {
  const res = await api("GET", "/api/user/profile", { headers: auth });
  expect(res.status).toBe(200);
  return res.body.data;
};

async function control(path: string, body: unknown, method = "POST") {
  const res = await fetch(`${standIn}/__control/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe("GET /api/user/profile", () => {
  it("answers the enveloped profile of a new user with defaults", async () => {
    const { auth, id } = await signedIn();
    const terms = await api("GET", "/api/user/terms");
    const res = await api("GET", "/api/user/profile", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id,
        handle: null,
        displayName: null,
        bio: null,
        email: null,
        avatarUrl: null,
        avatarThumbhash: null,
        bannerUrl: null,
        bannerThumbhash: null,
        favoriteTeams: [],
        isPrivate: false,
        onboarded: false,
        ugcTermsVersion: null,
        ugcTermsAcceptedAt: null,
        currentTermsVersion: terms.body.data.currentVersion,
        termsAccepted: false,
        idpSyncedAt: null,
        createdAt: expect.stringMatching(ISO),
      },
    });
  });

  it("reflects stored media, privacy and terms fields", async () => {
    const { auth, id } = await signedIn();
    const current = (await api("GET", "/api/user/terms")).body.data.currentVersion;
    const at = new Date("2026-02-03T04:05:06.789Z");
    await db().user.update({
      where: { id },
      data: {
        avatarUrl: "https://cdn.example.com/a.webp",
        avatarThumbhash: "AAAA",
        bannerUrl: "https://cdn.example.com/b.webp",
        bannerThumbhash: "BBBB",
        isPrivate: true,
        ugcTermsVersion: current,
        ugcTermsAcceptedAt: at,
      },
    });
    const data = await profileOf(auth);
    expect(data).toMatchObject({
      avatarUrl: "https://cdn.example.com/a.webp",
      avatarThumbhash: "AAAA",
      bannerUrl: "https://cdn.example.com/b.webp",
      bannerThumbhash: "BBBB",
      isPrivate: true,
      ugcTermsVersion: current,
      ugcTermsAcceptedAt: at.toISOString(),
      termsAccepted: true,
    });
    await db().user.update({ where: { id }, data: { ugcTermsVersion: "1999-01" } });
    expect((await profileOf(auth)).termsAccepted).toBe(false);
  });

  it("lists favorite teams in position order, with a null team where no team row exists", async () => {
    const { auth, id } = await signedIn();
    await db().favoriteTeam.createMany({
      data: [
        { userId: id, teamId: "tm_ghost_club", position: 1 },
        { userId: id, teamId: "tm_hch", position: 2 },
        { userId: id, teamId: "tm_gfg", position: 0 },
      ],
    });
    const data = await profileOf(auth);
    expect(data.favoriteTeams.map((f: { id: string }) => f.id)).toEqual(["tm_gfg", "tm_ghost_club", "tm_hch"]);
    expect(data.favoriteTeams[1]).toEqual({ id: "tm_ghost_club", team: null });
    expect(data.favoriteTeams[2].team).toMatchObject({
      id: "tm_hch",
      slug: "harbor-city-hawks",
      name: "Harbor City Hawks",
      isOfficial: true,
      archived: false,
      sport: expect.any(String),
    });
    expect(data.favoriteTeams[0].team).toMatchObject({ id: "tm_gfg", isOfficial: false, colors: { primary: "#4B3621", secondary: "#F2A900" } });
  });

  it("without a token is 401", async () => {
    const res = await api("GET", "/api/user/profile");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });
});

describe("POST /api/user/sync-idp", () => {
  it("copies email, name and image from the provider and stamps idpSyncedAt", async () => {
    const { sub, auth, id } = await signedIn();
    await control(
      `users/${sub}`,
      { first_name: "Pat", last_name: "Fan", username: "patfan", image_url: "https://img.example.com/pat.png", email: "pat@example.com" },
      "PUT",
    );
    const before = Date.now();
    const res = await api("POST", "/api/user/sync-idp", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      id,
      email: "pat@example.com",
      displayName: "Pat Fan",
      avatarUrl: "https://img.example.com/pat.png",
      idpSyncedAt: expect.stringMatching(ISO),
    });
    expect(new Date(res.body.data.idpSyncedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ email: "pat@example.com", displayName: "Pat Fan", avatarUrl: "https://img.example.com/pat.png" });
    expect(row.idpSyncedAt).not.toBeNull();
  });

  it("a provider name with bidi controls or zero-width characters is stored without them", async () => {
    const { sub, auth, id } = await signedIn();
    await control(
      `users/${sub}`,
      { first_name: "Pat\u202E\u200B", last_name: "\u2066Fan\u2069", username: null, image_url: "https://img.example.com/pf.png", email: "pf@example.com" },
      "PUT",
    );
    const res = await api("POST", "/api/user/sync-idp", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.displayName).toBe("Pat Fan");
    expect((await db().user.findUniqueOrThrow({ where: { id } })).displayName).toBe("Pat Fan");
  });

  it("keeps a display name the user set and an avatar the user uploaded; email follows the provider", async () => {
    const { sub, auth, id } = await signedIn();
    expect((await patch(auth, { displayName: "My Own Name" })).status).toBe(200);
    await db().user.update({ where: { id }, data: { avatarUrl: "/files/profile/mine.webp", avatarKey: "profile/mine.webp", avatarThumbhash: "TH" } });
    await control(
      `users/${sub}`,
      { first_name: "Provider", last_name: "Name", username: null, image_url: "https://img.example.com/other.png", email: "new@example.com" },
      "PUT",
    );
    const res = await api("POST", "/api/user/sync-idp", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ displayName: "My Own Name", avatarUrl: "/files/profile/mine.webp", avatarThumbhash: "TH", email: "new@example.com" });
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ displayName: "My Own Name", avatarUrl: "/files/profile/mine.webp", avatarKey: "profile/mine.webp", email: "new@example.com" });
  });

  it("a provider avatar (no upload) follows the provider on the next sync", async () => {
    const { sub, auth } = await signedIn();
    await control(
      `users/${sub}`,
      { first_name: "A", last_name: null, username: null, image_url: "https://img.example.com/1.png", email: "a@example.com" },
      "PUT",
    );
    expect((await api("POST", "/api/user/sync-idp", { headers: auth })).body.data).toMatchObject({
      avatarUrl: "https://img.example.com/1.png",
      displayName: "A",
    });
    await control(
      `users/${sub}`,
      { first_name: "B", last_name: "C", username: null, image_url: "https://img.example.com/2.png", email: "a@example.com" },
      "PUT",
    );
    const res = await api("POST", "/api/user/sync-idp", { headers: auth });
    // The name was set by the first sync, so it stays; the image is the provider's, so it follows.
    expect(res.body.data).toMatchObject({ avatarUrl: "https://img.example.com/2.png", displayName: "A" });
  });

  it("a user the provider does not know is 404 NOT_FOUND and nothing changes", async () => {
    const sub = `user_missing_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const auth = { authorization: `Bearer ${token(sub)}` };
    const res = await api("POST", "/api/user/sync-idp", { headers: auth });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    const row = await db().user.findUniqueOrThrow({ where: { externalId: sub } });
    expect(row.idpSyncedAt).toBeNull();
  });

  it("a provider failure is 502 UPSTREAM_ERROR and nothing changes", async () => {
    const { sub, auth, id } = await signedIn();
    await control("fail", { userId: sub });
    try {
      const res = await api("POST", "/api/user/sync-idp", { headers: auth });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ success: false, error: { code: "UPSTREAM_ERROR", message: expect.any(String) } });
      const row = await db().user.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ idpSyncedAt: null, email: null });
    } finally {
      await control("recover", { userId: sub });
    }
    expect((await api("POST", "/api/user/sync-idp", { headers: auth })).status).toBe(200);
  });

  it("without a token is 401", async () => {
    const res = await api("POST", "/api/user/sync-idp");
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });
});
