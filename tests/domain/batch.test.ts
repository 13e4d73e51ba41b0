import { describe, expect, it } from "vitest";
import { batchConcurrentCalls, inItemOrder } from "../../lib/db/batch";
import { inRequestScope, requestState } from "../../lib/kernel/request-scope";

// Batched concurrent calls (lib/db/batch.ts): concurrent calls share a write, one per key in each, and a failing batch fails
// only the calls whose own write fails.

interface Item {
  key: string;
  value: number;
}

/** A write that records each batch and answers value × 10; values in `bad` make the whole write throw `error`. */
function recorder(bad = new Set<number>(), error = (items: Item[]) => new Error(`bad item in ${items.map((i) => i.value).join(",")}`)) {
  const batches: Item[][] = [];
  const write = async (items: Item[]) => {
    batches.push(items);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (items.some((i) => bad.has(i.value))) throw error(items);
    return items.map((i) => i.value * 10);
  };
  return { batches, write };
}

describe("batchConcurrentCalls", () => {
  it("writes a lone call at once, and the calls made meanwhile together in the next batch", async () => {
    const { batches, write } = recorder();
    const call = batchConcurrentCalls(write, { keyOf: (i) => i.key, max: 64 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => call({ key: `k${n}`, value: n })));
    expect(results).toEqual(Array.from({ length: 10 }, (_, n) => n * 10));
    expect(batches.map((b) => b.map((i) => i.value))).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9]]);
  });

  it("never puts two items with one key in a batch, and keeps each key's order", async () => {
    const { batches, write } = recorder();
    const call = batchConcurrentCalls(write, { keyOf: (i) => i.key, max: 64 });
    const items = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => ({ key: n % 2 === 0 ? "even" : `odd${n}`, value: n }));
    const results = await Promise.all(items.map(call));
    expect(results).toEqual(items.map((i) => i.value * 10));
    for (const b of batches) expect(new Set(b.map((i) => i.key)).size).toBe(b.length);
    // Each batch reaches the write in key order (the same lock order in every process).
    for (const b of batches) expect(b.map((i) => i.key)).toEqual(b.map((i) => i.key).sort());
    const evens = batches
      .flat()
      .filter((i) => i.key === "even")
      .map((i) => i.value);
    expect(evens).toEqual([0, 2, 4, 6]);
  });

  it("holds at most `max` items in a batch", async () => {
    const { batches, write } = recorder();
    const call = batchConcurrentCalls(write, { keyOf: (i) => i.key, max: 3 });
    await Promise.all(Array.from({ length: 10 }, (_, n) => call({ key: `k${n}`, value: n })));
    expect(Math.max(...batches.map((b) => b.length))).toBe(3);
    expect(
      batches
        .flat()
        .map((i) => i.value)
        .sort((a, b) => a - b),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("fails only the call whose item fails: a failed batch is written again item by item", async () => {
    const { write } = recorder(new Set([4]));
    const call = batchConcurrentCalls(write, { keyOf: (i) => i.key, max: 64 });
    const settled = await Promise.allSettled(Array.from({ length: 8 }, (_, n) => call({ key: `k${n}`, value: n })));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    expect((settled[4] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    expect((settled[5] as PromiseFulfilledResult<number>).value).toBe(50);
    // And it keeps writing afterwards.
    await expect(call({ key: "k9", value: 9 })).resolves.toBe(90);
  });

  it("fails every call of a batch at once when the database is unavailable, without retrying them one by one", async () => {
    const unreachable = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const { batches, write } = recorder(new Set([0, 1, 2, 3, 4, 5]), unreachable);
    const call = batchConcurrentCalls(write, { max: 64 });
    const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => call({ key: `k${n}`, value: n })));
    expect(settled.every((s) => s.status === "rejected" && (s.reason as { code?: string }).code === "ECONNREFUSED")).toBe(true);
    expect(batches.map((b) => b.length)).toEqual([1, 5]);
  });
});

describe("inItemOrder", () => {
  it("fails every call, loudly, when the write answers fewer results than items (no caller gets another's row)", async () => {
    const call = batchConcurrentCalls(async (items: Item[]) => items.slice(1).map((i) => i.value), { max: 64 });
    const results = await Promise.allSettled([1, 2, 3].map((value) => call({ key: `k${value}`, value })));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/answered 0 results for 1 items/);
  });

  it("runs each batch outside the request that started it: nothing the write notes lands in that request", async () => {
    const KEY = Symbol("notes");
    const seen: (string[] | undefined)[] = [];
    const call = batchConcurrentCalls(
      async (items: Item[]) => {
        seen.push(requestState(KEY, () => [] as string[]));
        return items.map((i) => i.value);
      },
      { max: 64 },
    );
    const notesOf = async (value: number) =>
      inRequestScope(async () => {
        await call({ key: `k${value}`, value });
        return requestState(KEY, () => [] as string[]);
      });
    const [first, second] = await Promise.all([notesOf(1), notesOf(2)]);
    expect(seen).toEqual([undefined, undefined]);
    expect([first, second]).toEqual([[], []]);
  });

  it("puts a batched statement's numbered rows back in item order, without the number, and marks items without a row", () => {
    const rows = [
      { n: 3n, v: "c" },
      { n: 1, v: "a" },
    ];
    expect(inItemOrder(rows, 4)).toEqual([{ v: "a" }, undefined, { v: "c" }, undefined]);
  });
});
