import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, newUser } from "../helpers";

// The audit log (lib/core/audit): a staff API call writes its entry in the transaction of its change, with the staff id,
// the role, what changed and the request's id; a refused call writes none; entries cannot be changed or removed.

const hours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe("audit log", () => {
  it("records a staff API call with its request id, none for a refused one, and refuses to change an entry", async () => {
    const staff = newUser({ admin: true });
    const card = await db().collectibleCard.findFirstOrThrow({ where: { rarity: "common" }, select: { id: true } });
    const title = `Audited challenge ${randomUUID()}`;
    const json = { title, startsAt: hours(-1), endsAt: hours(24), cards: [{ cardId: card.id }], reward: { rep: 5 } };
    const res = await api("POST", "/api/admin/challenges", { headers: staff.auth, json });
    expect(res.status, res.text).toBe(201);
    const id = res.body.data.challenge.id as string;
    const entries = await db().auditEntry.findMany({ where: { targetType: "challenge", targetId: id } });
    expect(entries).toEqual([
      expect.objectContaining({
        actorId: staff.sub,
        actorRole: "admin",
        action: "challenge.create",
        requestId: res.headers.get("x-request-id"),
        after: expect.objectContaining({ title }),
      }),
    ]);

    // Refused (the deadline before the start): no change, no entry. Counted for this staff member only: other files
    // running alongside write entries of their own.
    const mine = { where: { actorId: staff.sub } };
    const before = await db().auditEntry.count(mine);
    const refused = await api("POST", "/api/admin/challenges", { headers: staff.auth, json: { ...json, endsAt: hours(-2) } });
    expect(refused.status).toBe(400);
    expect(await db().auditEntry.count(mine)).toBe(before);

    await expect(db().$executeRaw`UPDATE audit_log SET note = 'edited' WHERE id = ${entries[0]!.id}::uuid`).rejects.toThrow(/append-only/);
    await expect(db().$executeRaw`DELETE FROM audit_log WHERE id = ${entries[0]!.id}::uuid`).rejects.toThrow(/append-only/);
  });
});
