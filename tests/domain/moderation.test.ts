import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../lib/kernel/errors";
import { assertMayPost, currentTermsVersion } from "../../lib/core/visibility/service";
import { liftSuspension, suspendUser } from "../../lib/features/moderation/service";
import { db } from "../helpers";

// Posting suspensions as the post and comment creates see them: assertMayPost (lib/core/visibility/service.ts), the one
// rule both creates call. (The end-to-end check through POST /api/locker-room is added where that route lives.)

async function fan() {
  return db().user.create({ data: { externalId: `user_${randomUUID().replace(/-/g, "").slice(0, 20)}`, ugcTermsVersion: currentTermsVersion() } });
}

async function refusal(userId: string, now?: Date) {
  try {
    await assertMayPost(db(), userId, now);
  } catch (error) {
    return error as DomainError;
  }
  return null;
}

describe("posting suspensions (assertMayPost)", () => {
  it("passes before a suspension, refuses with the end during it, passes again once lifted", async () => {
    const user = await fan();
    await expect(assertMayPost(db(), user.id)).resolves.toBeUndefined();

    const s = await suspendUser(db(), { userId: user.id, hours: 48, reason: "Spam wave" }, { id: "user_staff_domain", role: "moderator" });
    expect(s).toMatchObject({ userId: user.id, reason: "Spam wave", staffId: "user_staff_domain", liftedAt: null, active: true });
    const until = new Date(s.until);
    expect(Math.abs(until.getTime() - (Date.now() + 48 * 3600_000))).toBeLessThan(60_000);

    const error = await refusal(user.id);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: "POSTING_SUSPENDED", status: 403, details: [{ path: "suspendedUntil", message: s.until }] });
    expect(error!.message).toContain(s.until);

    const lifted = await liftSuspension(db(), s.id, { id: "user_staff_domain", role: "moderator" });
    expect(lifted).toMatchObject({ id: s.id, active: false });
    expect(lifted.liftedAt).not.toBeNull();
    await expect(assertMayPost(db(), user.id)).resolves.toBeUndefined();
  });

  it("passes once the suspension has ended, and the latest end of overlapping suspensions wins", async () => {
    const user = await fan();
    const short = await suspendUser(db(), { userId: user.id, hours: 1, reason: "Short" }, { id: "user_staff_domain", role: "moderator" });
    const long = await suspendUser(db(), { userId: user.id, hours: 5, reason: "Long" }, { id: "user_staff_domain", role: "moderator" });
    expect((await refusal(user.id))?.details).toEqual([{ path: "suspendedUntil", message: long.until }]);
    // Lifting the longer one leaves the shorter one in force.
    await liftSuspension(db(), long.id, { id: "user_staff_domain", role: "moderator" });
    expect((await refusal(user.id))?.details).toEqual([{ path: "suspendedUntil", message: short.until }]);
    // Past its end (as of a later clock), it no longer applies.
    await expect(assertMayPost(db(), user.id, new Date(Date.parse(short.until) + 1000))).resolves.toBeUndefined();
    // An expired row in the table: passes now.
    await db().postingSuspension.update({ where: { id: short.id }, data: { until: new Date(Date.now() - 1000) } });
    await expect(assertMayPost(db(), user.id)).resolves.toBeUndefined();
  });

  it("the terms rule still comes first: a suspended user without the current terms gets UGC_TERMS_REQUIRED", async () => {
    const user = await fan();
    await suspendUser(db(), { userId: user.id, hours: 2, reason: "x" }, { id: "user_staff_domain", role: "moderator" });
    await db().user.update({ where: { id: user.id }, data: { ugcTermsVersion: null } });
    expect((await refusal(user.id))?.code).toBe("UGC_TERMS_REQUIRED");
  });
});
