import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { LOCKER_MEDIA_DAILY_BYTES, LOCKER_MEDIA_GRACE_MS, LOCKER_MEDIA_PENDING_CAP } from "../../lib/core/uploads/kinds";
import { attachLockerMedia } from "../../lib/core/uploads/service";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { badInputs, expectStoredWebp, expectThumbhash, fetchStored, filesIn, jpeg, keyOf, MB, png, raw, solid, upload, uploadDir } from "./uploads-fixtures";

// Black-box tests of POST /api/upload/locker-media (images for posts, pending until a post uses them): the stored
// image, the per-user quota, and the sweep of uploads no post used.

describe("POST /api/upload/locker-media", () => {
  it("stores the image (2048 px on the long side at most), records it and changes no user field", async () => {
    const { sub, auth } = newUser();
    await api("GET", "/api/user", { headers: auth });
    const userId = await userIdOf(sub);
    const before = await db().user.findUniqueOrThrow({ where: { id: userId } });
    const res = await upload("locker-media", auth, { bytes: await jpeg(4000, 1000), type: "image/jpeg" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ width: 2048, height: 512, contentType: "image/webp" });
    expect(res.body.data.url).toMatch(new RegExp(`^/files/locker-media/${userId}/[0-9a-f-]{36}\.webp$`));
    await expectStoredWebp(res.body.data.url, 2048, 512);
    expectThumbhash(res.body.data.thumbhash);
    const after = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect({ ...after, updatedAt: null }).toEqual({ ...before, updatedAt: null });
    expect(await db().mediaUpload.findUniqueOrThrow({ where: { id: res.body.data.id } })).toMatchObject({
      kind: "locker-media",
      userId,
      key: keyOf(res.body.data.url),
    });

    // A second one does not replace the first.
    const again = await upload("locker-media", auth, { bytes: await png(300, 200), type: "image/png" });
    expect(again.status).toBe(201);
    expect((await fetchStored(res.body.data.url)).res.status).toBe(200);
  });

  it("accepts JPEG, PNG, WebP, GIF (first frame) and AVIF; refuses the rest", async () => {
    const { auth } = newUser();
    const red = await solid(60, 40, 230, 20, 20).png().toBuffer();
    const blue = await solid(60, 40, 20, 20, 230).png().toBuffer();
    const gif = await sharp([red, blue], { join: { animated: true } })
      .gif({ loop: 0, delay: [100, 100] })
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const inputs: [string, Buffer][] = [
      ["jpeg", await raw(60, 40).jpeg().toBuffer()],
      ["png", await raw(60, 40).png().toBuffer()],
      ["webp", await raw(60, 40).webp().toBuffer()],
      ["avif", await raw(60, 40).avif().toBuffer()],
      ["gif", gif],
    ];
    for (const [label, bytes] of inputs) {
      const res = await upload("locker-media", auth, { bytes, name: "x.bin", type: "application/octet-stream" });
      expect({ label, status: res.status }).toEqual({ label, status: 201 });
      const { bytes: stored, meta } = await expectStoredWebp(res.body.data.url, 60, 40);
      if (label === "gif") {
        expect(meta.pages ?? 1).toBe(1);
        const { data } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
        expect(data[0]).toBeGreaterThan(150); // red: the first frame
        expect(data[2]).toBeLessThan(100);
      }
    }
    for (const bad of await badInputs(10 * MB)) {
      const res = await upload("locker-media", auth, bad.file);
      expect({ label: bad.label, status: res.status, code: res.body?.error?.code }).toEqual({ label: bad.label, status: bad.status, code: bad.code });
    }
  });
});

describe("POST /api/upload/locker-media: quota", () => {
  const HOUR = 3_600_000;
  const tiny = (seed: number) => png(16, 12, seed);

  /** A MediaUpload row of the user's, planted directly (no file unless the test writes one). */
  function plantRow(userId: string, extra: { kind?: string; bytes?: number; attachedAt?: Date | null; createdAt?: Date; key?: string } = {}) {
    const kind = extra.kind ?? "locker-media";
    const key = extra.key ?? `${kind}/${userId}/${randomUUID()}.webp`;
    return db().mediaUpload.create({
      data: {
        userId,
        kind,
        key,
        url: `/files/${key}`,
        contentType: "image/webp",
        bytes: extra.bytes ?? 100,
        width: 1,
        height: 1,
        thumbhash: "AAAA",
        attachedAt: extra.attachedAt ?? null,
        ...(extra.createdAt ? { createdAt: extra.createdAt } : {}),
      },
    });
  }

  async function signedUp() {
    const user = newUser();
    await api("GET", "/api/user", { headers: user.auth });
    return { ...user, userId: await userIdOf(user.sub) };
  }

  const pendingOf = (userId: string) => db().mediaUpload.count({ where: { userId, kind: "locker-media", attachedAt: null } });

  it(`at ${LOCKER_MEDIA_PENDING_CAP} pending uploads the next is 429 UPLOAD_QUOTA_EXCEEDED and stores nothing; attached uploads do not count`, async () => {
    const { auth, userId } = await signedUp();
    const planted = [];
    for (let i = 0; i < LOCKER_MEDIA_PENDING_CAP - 1; i++) planted.push(await plantRow(userId));
    await plantRow(userId, { attachedAt: new Date() }); // used by a post: not pending
    const last = await upload("locker-media", auth, { bytes: await tiny(1), type: "image/png" });
    expect(last.status).toBe(201);
    expect(await pendingOf(userId)).toBe(LOCKER_MEDIA_PENDING_CAP);

    const refused = await upload("locker-media", auth, { bytes: await tiny(2), type: "image/png" });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: { code: "UPLOAD_QUOTA_EXCEEDED", message: expect.stringMatching(/20 locker-room uploads/) } });
    expect(await pendingOf(userId)).toBe(LOCKER_MEDIA_PENDING_CAP);
    expect(filesIn(`locker-media/${userId}`)).toEqual([path.basename(last.body.data.url)]);

    // A post using one of them frees a slot.
    expect(await attachLockerMedia(db(), userId, [planted[0]!.id])).toEqual([planted[0]!.id]);
    const again = await upload("locker-media", auth, { bytes: await tiny(3), type: "image/png" });
    expect(again.status).toBe(201);
    expect(filesIn(`locker-media/${userId}`)).toHaveLength(2);
  });

  it("past the bytes per rolling 24 hours the upload is 429; older uploads do not count", async () => {
    const { auth, userId } = await signedUp();
    await plantRow(userId, { attachedAt: new Date(), bytes: LOCKER_MEDIA_DAILY_BYTES - 10 });
    const refused = await upload("locker-media", auth, { bytes: await tiny(4), type: "image/png" });
    expect(refused.status).toBe(429);
    expect(errorOf(refused)).toEqual({ code: "UPLOAD_QUOTA_EXCEEDED", message: expect.stringMatching(/per 24 hours/) });
    expect(filesIn(`locker-media/${userId}`)).toEqual([]);

    const other = await signedUp();
    await plantRow(other.userId, { attachedAt: new Date(), bytes: LOCKER_MEDIA_DAILY_BYTES, createdAt: new Date(Date.now() - 25 * HOUR) });
    expect((await upload("locker-media", other.auth, { bytes: await tiny(5), type: "image/png" })).status).toBe(201);
  });

  it(`${LOCKER_MEDIA_PENDING_CAP + 5} concurrent uploads of one user store exactly ${LOCKER_MEDIA_PENDING_CAP}`, async () => {
    const { auth, userId } = await signedUp();
    const images = await Promise.all(Array.from({ length: LOCKER_MEDIA_PENDING_CAP + 5 }, (_, i) => tiny(100 + i)));
    const results = await Promise.all(images.map((bytes) => upload("locker-media", auth, { bytes, type: "image/png" })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(LOCKER_MEDIA_PENDING_CAP);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body?.error?.code])).toEqual(Array(5).fill([429, "UPLOAD_QUOTA_EXCEEDED"]));
    expect(await pendingOf(userId)).toBe(LOCKER_MEDIA_PENDING_CAP);
    // The refused uploads' files were deleted again: exactly the recorded ones remain.
    const rows = await db().mediaUpload.findMany({ where: { userId }, select: { key: true } });
    expect(filesIn(`locker-media/${userId}`)).toEqual(rows.map((r) => path.basename(r.key)).sort());
  });
});

describe("GET /api/cron/uploads-sweep", () => {
  const HOUR = 3_600_000;
  const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
  const sweep = (authorization?: string) => api("GET", "/api/cron/uploads-sweep", { headers: authorization === undefined ? {} : { authorization } });
  const exists = (url: string) => existsSync(path.join(uploadDir(), keyOf(url)));
  const age = (id: string, hours: number) => db().mediaUpload.update({ where: { id }, data: { createdAt: new Date(Date.now() - hours * HOUR) } });

  it(`deletes pending locker media older than ${LOCKER_MEDIA_GRACE_MS / HOUR} h (file, then row); keeps fresh and attached uploads`, async () => {
    const { sub, auth } = newUser();
    const ups = [];
    for (let i = 0; i < 4; i++) ups.push((await upload("locker-media", auth, { bytes: await png(20, 20, 40 + i), type: "image/png" })).body.data);
    const userId = await userIdOf(sub);
    const [stale, stale2, fresh, attached] = ups;
    await age(stale.id, 25);
    await age(stale2.id, 24 * 7);
    await age(fresh.id, 23); // within the grace period
    await db().mediaUpload.update({
      where: { id: attached.id },
      data: { createdAt: new Date(Date.now() - 48 * HOUR), attachedAt: new Date(Date.now() - 47 * HOUR) },
    });

    // A replaced avatar whose delete had failed: no user row references it any more.
    const avatar = await upload("profile", auth, { bytes: await png(40, 40), type: "image/png" });
    const replacedKey = `avatars/${userId}/${randomUUID()}.webp`;
    mkdirSync(path.join(uploadDir(), path.dirname(replacedKey)), { recursive: true });
    writeFileSync(path.join(uploadDir(), replacedKey), "old avatar");
    await db().mediaUpload.create({
      data: {
        userId,
        kind: "profile",
        key: replacedKey,
        url: `/files/${replacedKey}`,
        contentType: "image/webp",
        bytes: 10,
        width: 1,
        height: 1,
        thumbhash: "AAAA",
        createdAt: new Date(Date.now() - 30 * HOUR),
      },
    });
    const avatarRow = await db().mediaUpload.findFirstOrThrow({ where: { key: keyOf(avatar.body.data.url) } });
    await age(avatarRow.id, 30); // old, but the user's current avatar: kept

    const res = await sweep(`Bearer ${cronSecret()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { deleted: expect.any(Number), failed: expect.any(Number) } });
    expect(res.body.data.deleted).toBeGreaterThanOrEqual(3);

    for (const gone of [stale, stale2]) {
      expect(exists(gone.url)).toBe(false);
      expect((await fetchStored(gone.url)).res.status).toBe(404);
      expect(await db().mediaUpload.findUnique({ where: { id: gone.id } })).toBeNull();
    }
    for (const kept of [fresh, attached]) {
      expect(exists(kept.url)).toBe(true);
      expect(await db().mediaUpload.findUnique({ where: { id: kept.id } })).not.toBeNull();
    }
    expect(existsSync(path.join(uploadDir(), replacedKey))).toBe(false);
    expect(await db().mediaUpload.count({ where: { key: replacedKey } })).toBe(0);
    expect(exists(avatar.body.data.url)).toBe(true);
    expect(await db().mediaUpload.count({ where: { id: avatarRow.id } })).toBe(1);

    // An expired upload can no longer be attached; a fresh one can.
    expect(await attachLockerMedia(db(), userId, [stale.id, fresh.id])).toEqual([fresh.id]);
  });

  it("a file that cannot be deleted keeps its row and counts as failed", async () => {
    const { sub, auth } = newUser();
    await api("GET", "/api/user", { headers: auth });
    const userId = await userIdOf(sub);
    // The "file" is a directory: unlink fails (EISDIR).
    const stuckKey = `locker-media/${userId}/stuck-${randomUUID()}.webp`;
    mkdirSync(path.join(uploadDir(), stuckKey), { recursive: true });
    const row = await db().mediaUpload.create({
      data: {
        userId,
        kind: "locker-media",
        key: stuckKey,
        url: `/files/${stuckKey}`,
        contentType: "image/webp",
        bytes: 1,
        width: 1,
        height: 1,
        thumbhash: "AAAA",
        createdAt: new Date(Date.now() - 25 * HOUR),
      },
    });
    const res = await sweep(`Bearer ${cronSecret()}`);
    expect(res.status).toBe(200);
    expect(res.body.data.failed).toBeGreaterThanOrEqual(1);
    expect(await db().mediaUpload.count({ where: { id: row.id } })).toBe(1);
    // Cleaned up here, so later sweeps do not keep failing on it.
    rmSync(path.join(uploadDir(), stuckKey), { recursive: true });
    const next = await sweep(`Bearer ${cronSecret()}`);
    expect(next.status).toBe(200);
    expect(await db().mediaUpload.count({ where: { id: row.id } })).toBe(0);
  });

  it.each([
    ["no header", undefined],
    ["another secret", "Bearer not-the-cron-secret-000"],
    ["the secret with a suffix", () => `Bearer ${cronSecret()}x`],
    ["the bare secret", () => cronSecret()],
    ["a session token", () => newUser({ admin: true }).auth.authorization],
  ] as [string, string | undefined | (() => string)][])("401 UNAUTHORIZED with %s, and nothing is deleted", async (_label, authorization) => {
    const { auth } = newUser();
    const up = (await upload("locker-media", auth, { bytes: await png(20, 20, 9), type: "image/png" })).body.data;
    await age(up.id, 48);
    const res = await sweep(typeof authorization === "function" ? authorization() : authorization);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    expect(exists(up.url)).toBe(true);
    expect(await db().mediaUpload.count({ where: { id: up.id } })).toBe(1);
    await db().mediaUpload.delete({ where: { id: up.id } }); // not left for a later sweep to count
  });

  it("is in the internal OpenAPI document only; POST is 405", async () => {
    expect((await api("GET", "/api/openapi.json")).body.paths["/api/cron/uploads-sweep"]).toBeUndefined();
    const internal = await api("GET", "/api/admin/openapi.json", { headers: newUser({ admin: true }).auth });
    expect(internal.body.paths["/api/cron/uploads-sweep"].get.description).toMatch(/Bearer <CRON_SECRET>/);
    expect((await api("POST", "/api/cron/uploads-sweep", { headers: { authorization: `Bearer ${cronSecret()}` } })).status).toBe(405);
  });
});
