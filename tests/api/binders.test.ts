import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { transferOwnership } from "../../lib/core/collectibles/queries";
import { api, db, errorOf, fan, testCard } from "../helpers";

// Binders: the fans' albums of owned collectibles; visibility like profiles; caps under concurrency.

const card = testCard("Binder test card", "common", 100_000);
const CARD = card.id;
type Fan = Awaited<ReturnType<typeof fan>>;
const give = (f: Fan) => card.give(f.id);
const create = (f: Fan, json: unknown) => api("POST", "/api/v1/binders", { headers: f.auth, json });
const add = (f: Fan, binderId: string, collectibleId: string) => api("POST", `/api/v1/binders/${binderId}/items`, { headers: f.auth, json: { collectibleId } });

describe("binders", () => {
  it("creates, lists in order, renames, reorders and deletes the caller's binders", async () => {
    const f = await fan();
    const a = (await create(f, { name: "  Rookies  " })).body.data.binder;
    expect(a).toMatchObject({ name: "Rookies", isPublic: false, position: 0, itemCount: 0, cover: null, userId: f.id });
    const b = (await create(f, { name: "Legends", isPublic: true })).body.data.binder;
    expect(b.position).toBe(1);
    expect((await api("GET", "/api/v1/binders", { headers: f.auth })).body.data.binders.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);

    const renamed = await api("PATCH", `/api/v1/binders/${a.id}`, { headers: f.auth, json: { name: "Rookie cards", isPublic: true } });
    expect(renamed.body.data.binder).toMatchObject({ name: "Rookie cards", isPublic: true });
    expect((await api("PATCH", `/api/v1/binders/${a.id}`, { headers: f.auth, json: {} })).status).toBe(400);

    const reordered = await api("PUT", "/api/v1/binders/order", { headers: f.auth, json: { binderIds: [b.id, a.id] } });
    expect(reordered.body.data.binders.map((x: { id: string; position: number }) => [x.id, x.position])).toEqual([
      [b.id, 0],
      [a.id, 1],
    ]);
    for (const binderIds of [[b.id], [b.id, a.id, a.id], [b.id, randomUUID()]]) {
      const bad = await api("PUT", "/api/v1/binders/order", { headers: f.auth, json: { binderIds } });
      expect(bad.status).toBe(400);
      expect(errorOf(bad).details!.map((d) => d.path)).toEqual(["body.binderIds"]);
    }

    const other = await fan();
    expect((await api("PATCH", `/api/v1/binders/${a.id}`, { headers: other.auth, json: { name: "Mine now" } })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/binders/${a.id}`, { headers: other.auth })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/binders/${a.id}`, { headers: f.auth })).body.data).toEqual({ removed: true });
    expect((await api("DELETE", `/api/v1/binders/${a.id}`, { headers: f.auth })).status).toBe(404);
    expect((await create(f, { name: "" })).status).toBe(400);
    expect((await create(f, { name: "x".repeat(61) })).status).toBe(400);
    expect((await api("GET", "/api/v1/binders")).status).toBe(401);
  });

  it("fifty binders at most, also when twenty creates race", async () => {
    const f = await fan();
    for (let i = 0; i < 40; i++) expect((await create(f, { name: `B${i}` })).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create(f, { name: `R${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "BINDER_LIMIT_REACHED")).toHaveLength(10);
    expect(await db().binder.count({ where: { userId: f.id } })).toBe(50);
  });

  it("holds owned collectibles once each, in order, paged; someone else's item or binder is 404", async () => {
    const f = await fan();
    const binder = (await create(f, { name: "Album" })).body.data.binder;
    const items = [await give(f), await give(f), await give(f)];
    for (const id of items) expect((await add(f, binder.id, id)).status).toBe(201);
    const again = await add(f, binder.id, items[0]!);
    expect(again.status).toBe(200);
    expect(again.body.data.binder.itemCount).toBe(3);
    const racing = await Promise.all(Array.from({ length: 5 }, () => add(f, binder.id, items[1]!)));
    expect(racing.every((r) => r.status === 200)).toBe(true);

    const first = (await api("GET", `/api/v1/binders/${binder.id}?limit=2`, { headers: f.auth })).body.data;
    const rest = (await api("GET", `/api/v1/binders/${binder.id}?limit=2&cursor=${first.nextCursor}`, { headers: f.auth })).body.data;
    expect([...first.items, ...rest.items].map((i: { id: string }) => i.id)).toEqual(items);
    expect(rest.nextCursor).toBeUndefined();
    expect(first.items[0]).toMatchObject({ serial: expect.any(Number), card: { id: CARD }, position: 0 });

    // An item can be in two binders.
    const second = (await create(f, { name: "Favourites" })).body.data.binder;
    expect((await add(f, second.id, items[0]!)).status).toBe(201);

    const other = await fan();
    expect((await add(other, binder.id, await give(other))).status).toBe(404);
    const theirs = (await create(other, { name: "Theirs" })).body.data.binder;
    expect((await add(other, theirs.id, items[2]!)).status).toBe(404);

    expect((await api("DELETE", `/api/v1/binders/${binder.id}/items/${items[2]}`, { headers: f.auth })).body.data).toEqual({ removed: true });
    expect((await api("DELETE", `/api/v1/binders/${binder.id}/items/${items[2]}`, { headers: f.auth })).body.data).toEqual({ removed: false });
    expect((await api("DELETE", `/api/v1/binders/${binder.id}/items/${items[0]}`, { headers: other.auth })).status).toBe(404);
  });

  it("a collectible that changes hands leaves the old owner's binders", async () => {
    const seller = await fan();
    const buyer = await fan();
    const item = await give(seller);
    const binder = (await create(seller, { name: "For sale", isPublic: true })).body.data.binder;
    await add(seller, binder.id, item);
    const moved = await db().$transaction((tx) =>
      transferOwnership(tx, { collectibleId: item, from: seller.id, to: buyer.id, reason: "sale", referenceId: "test", price: 1 }),
    );
    expect(moved).toBe(true);
    const after = (await api("GET", `/api/v1/binders/${binder.id}`, { headers: seller.auth })).body.data;
    expect(after.items).toEqual([]);
    expect(after.binder.itemCount).toBe(0);
    expect((await add(seller, binder.id, item)).status).toBe(404);

    // A row a racing add left behind (committed while the sale's statement ran) is neither shown nor counted.
    await db().binderItem.create({ data: { binderId: binder.id, collectibleId: item, position: 7 } });
    const stale = (await api("GET", `/api/v1/binders/${binder.id}`, { headers: seller.auth })).body.data;
    expect(stale.items).toEqual([]);
    expect(stale.binder.itemCount).toBe(0);
  });

  it("public binders show to others unless the profile is private; private ones never", async () => {
    const f = await fan();
    const pub = (await create(f, { name: "Show-off", isPublic: true })).body.data.binder;
    const priv = (await create(f, { name: "Secret" })).body.data.binder;
    const other = await fan();
    const listed = (await api("GET", `/api/v1/users/${f.id}/binders`)).body.data.binders;
    expect(listed.map((b: { id: string }) => b.id)).toEqual([pub.id]);
    expect((await api("GET", `/api/v1/binders/${pub.id}`)).status).toBe(200);
    expect((await api("GET", `/api/v1/binders/${priv.id}`, { headers: other.auth })).status).toBe(404);
    expect((await api("GET", `/api/v1/users/${f.id}/binders`, { headers: f.auth })).body.data.binders).toHaveLength(2);

    await db().user.update({ where: { id: f.id }, data: { isPrivate: true } });
    expect((await api("GET", `/api/v1/users/${f.id}/binders`)).body.data.binders).toEqual([]);
    expect((await api("GET", `/api/v1/binders/${pub.id}`, { headers: other.auth })).status).toBe(404);
    expect((await api("GET", `/api/v1/binders/${pub.id}`, { headers: f.auth })).status).toBe(200);
    expect((await api("GET", `/api/v1/binders/${randomUUID()}`)).status).toBe(404);
  });
});
