import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findEntities, findFans } from "../../lib/operations/admin/queries";
import { findAnyone, reverseEntry } from "../../lib/operations/admin/service";
import { DomainError } from "../../lib/kernel/errors";
import { award } from "../../lib/core/rep/grants";
import { ADJUSTMENT_MAX } from "../../lib/core/wallets/schemas";
import { adjust } from "../../lib/core/wallets/service";
import { api, db, newUser } from "../helpers";

// The console's fan page and search (docs/decisions/0059): the staff wallet adjustment (ledger and balance agree, one
// audit entry per adjustment in its transaction, concurrent adjustments both land, bad input refused with nothing
// written), the audited Rep reversal, and "find anyone" (fans by handle, name, e-mail, ids; other kinds by id).

const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = { id: `user_staff${uid()}`, role: "admin" as const };

async function fan(data: { handle?: string; displayName?: string; email?: string } = {}) {
  return db().user.create({ data: { externalId: `user_fc${uid()}`, ...data, handleKey: data.handle?.toLowerCase() } });
}
const walletOf = async (userId: string) => {
  const w = await db().wallet.findUnique({ where: { userId_currency: { userId, currency: "COIN" } } });
  const sum = await db().walletTransaction.aggregate({ where: { userId }, _sum: { amount: true } });
  return { balance: Number(w?.balance ?? 0), ledger: Number(sum._sum.amount ?? 0) };
};
const auditOf = (userId: string) => db().auditEntry.findMany({ where: { targetType: "user", targetId: userId }, orderBy: { id: "asc" } });
async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    return error as DomainError;
  }
  throw new Error("not refused");
}

describe("staff wallet adjustment", () => {
  it("credits and debits with the ledger and the balance in step, one audit entry each; a refused debit writes nothing", async () => {
    const user = await fan();
    const credited = await adjust(db(), { userId: user.id, currency: "COIN", amount: 5_000, note: "goodwill" }, STAFF);
    expect(credited.transaction).toMatchObject({ amount: 5_000, balanceAfter: 5_000, reason: "adjustment", referenceType: "staff", referenceId: STAFF.id });
    await adjust(db(), { userId: user.id, currency: "COIN", amount: -1_250, note: "correction" }, STAFF);
    expect(await walletOf(user.id)).toEqual({ balance: 3_750, ledger: 3_750 });

    const over = await refusal(adjust(db(), { userId: user.id, currency: "COIN", amount: -10_000, note: "too much" }, STAFF));
    expect(over).toMatchObject({ code: "INSUFFICIENT_FUNDS", status: 409 });
    expect(await walletOf(user.id)).toEqual({ balance: 3_750, ledger: 3_750 });

    const audit = await auditOf(user.id);
    expect(audit.map((a) => [a.action, a.actorId, a.actorRole, a.note])).toEqual([
      ["wallet.adjust", STAFF.id, "admin", "goodwill"],
      ["wallet.adjust", STAFF.id, "admin", "correction"],
    ]);
    expect(audit[1]!.before).toEqual({ currency: "COIN", balance: 5_000 });
    expect(audit[1]!.after).toMatchObject({ currency: "COIN", balance: 3_750, amount: -1_250 });
  });

  it("lands two concurrent adjustments of one wallet exactly, each with its audit entry", async () => {
    const user = await fan();
    await adjust(db(), { userId: user.id, currency: "COIN", amount: 1_000, note: "seed" }, STAFF);
    const results = await Promise.all([
      adjust(db(), { userId: user.id, currency: "COIN", amount: 700, note: "first" }, STAFF),
      adjust(db(), { userId: user.id, currency: "COIN", amount: -400, note: "second" }, STAFF),
    ]);
    expect(await walletOf(user.id)).toEqual({ balance: 1_300, ledger: 1_300 });
    // Serialized on the user's row: the later one's balance_after includes the earlier one.
    expect(results.map((r) => r.transaction.balanceAfter).sort((a, b) => a - b)).toEqual(
      results[0]!.transaction.balanceAfter === 1_700 ? [1_300, 1_700] : [600, 1_300],
    );
    expect((await auditOf(user.id)).map((a) => a.note)).toEqual(expect.arrayContaining(["seed", "first", "second"]));
    expect(await auditOf(user.id)).toHaveLength(3);
  });

  it("refuses bad input (0, past the per-action limit, no reason, a bad or unknown user) and writes nothing", async () => {
    const user = await fan();
    const cases = [
      { userId: user.id, currency: "COIN" as const, amount: 0, note: "zero" },
      { userId: user.id, currency: "COIN" as const, amount: ADJUSTMENT_MAX + 1, note: "too big" },
      { userId: user.id, currency: "COIN" as const, amount: -(ADJUSTMENT_MAX + 1), note: "too small" },
      { userId: user.id, currency: "COIN" as const, amount: 1.5, note: "fraction" },
      { userId: user.id, currency: "COIN" as const, amount: 100, note: "   " },
      { userId: "not-a-uuid", currency: "COIN" as const, amount: 100, note: "bad id" },
    ];
    for (const input of cases) {
      const error = await refusal(adjust(db(), input, STAFF));
      expect(error, JSON.stringify(input)).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    }
    expect(await refusal(adjust(db(), { userId: randomUUID(), currency: "COIN", amount: 100, note: "nobody" }, STAFF))).toMatchObject({ status: 404 });
    expect(await walletOf(user.id)).toEqual({ balance: 0, ledger: 0 });
    expect(await auditOf(user.id)).toEqual([]);
  });

  it("audits the staff API's adjustment with the request id", async () => {
    const staff = newUser({ admin: true });
    const user = await fan();
    const res = await api("POST", "/api/admin/wallets/adjustments", { headers: staff.auth, json: { userId: user.id, amount: 250, note: "via API" } });
    expect(res.status, res.text).toBe(201);
    expect(await auditOf(user.id)).toEqual([
      expect.objectContaining({ action: "wallet.adjust", actorId: staff.sub, requestId: res.headers.get("x-request-id"), note: "via API" }),
    ]);
  });
});

describe("Rep reversal", () => {
  it("writes the reversal and its audit entry together", async () => {
    const user = await fan();
    const { entry } = (await db().$transaction((tx) =>
      award(tx, user.id, { earnKind: "test_grant", amount: 40, source: "club", reason: "test", grantKey: `t:${uid()}` }),
    ))!;
    await reverseEntry(db(), STAFF, user.id, entry.id, "granted twice");
    const [a] = await auditOf(user.id);
    expect(a).toMatchObject({ action: "rep.reverse", actorId: STAFF.id, note: "granted twice", before: { entryId: entry.id, amount: 40, balance: 40 } });
    expect(a!.after).toMatchObject({ balance: 0 });
  });
});

describe("find anyone", () => {
  it("finds a fan by exact handle, handle prefix, a typo, display name, e-mail (any case, or its start), external id and user id", async () => {
    const tag = uid();
    const alice = await fan({ handle: `Zed_${tag}`, displayName: `Quentin Marlowe ${tag}`, email: `Zed.${tag}@Example.com` });
    const ids = async (q: string) => (await findFans(db(), q, undefined, 50)).map((f) => f.id);
    expect((await ids(`zed_${tag}`))[0]).toBe(alice.id);
    expect(await ids(`@zed_${tag}`.slice(1, 10))).toContain(alice.id);
    expect(await ids(`Quentin Marlowe ${tag}`)).toContain(alice.id);
    expect(await ids(`zed.${tag}@example.com`)).toContain(alice.id);
    expect(await ids(`ZED.${tag}@EXAMPLE`)).toContain(alice.id);
    expect(await ids(alice.externalId)).toEqual([alice.id]);
    expect(await ids(alice.id)).toEqual([alice.id]);
    expect(await ids(`nobody_${uid()}@nowhere.test`)).toEqual([]);
  });

  it("pages fans by keyset without repeats", async () => {
    const tag = uid();
    const made = await Promise.all(Array.from({ length: 25 }, (_, i) => fan({ handle: `pg${tag}_${i}`, email: `pg${tag}_${i}@example.com` })));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await findAnyone(db(), `pg${tag}`, cursor);
      seen.push(...page.fans.map((f) => f.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(made.map((u) => u.id)));
    expect((await findAnyone(db(), `pg${tag}`, "garbage")).cursorInvalid).toBe(true);
  });

  it("finds a collectible, a pack order and a team by id, with the fan they belong to", async () => {
    const owner = await fan();
    const card = await db().collectibleCard.findFirstOrThrow({ select: { id: true, editionSize: true } });
    const serial = 900_000 + Math.floor(Math.random() * 90_000);
    const item = await db().collectible.create({ data: { cardId: card.id, serial, ownerId: owner.id } });
    expect(await findEntities(db(), item.id.toUpperCase())).toEqual([expect.objectContaining({ kind: "collectible", id: item.id, userId: owner.id })]);
    const team = await db().team.findFirstOrThrow({ where: { archivedAt: null }, select: { id: true, slug: true } });
    expect(await findEntities(db(), team.id)).toEqual([expect.objectContaining({ kind: "team", id: team.id })]);
    expect(await findEntities(db(), randomUUID())).toEqual([]);
    expect(await findEntities(db(), "two words")).toEqual([]);
  });
});
