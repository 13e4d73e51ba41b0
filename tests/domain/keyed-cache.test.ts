import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyedCache } from "../../lib/db/cache";

// keyedCache: the per-process cache of reads by many keys (team summaries, teams' next games, quest definitions).

const loader = () => {
  const calls: string[][] = [];
  const load = async (missing: string[]) => {
    calls.push([...missing]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return new Map(missing.filter((k) => !k.startsWith("none")).map((k) => [k, `value of ${k}`]));
  };
  return { calls, load };
};

describe("keyedCache", () => {
  it("reads only the missing keys, folds concurrent misses into one read and remembers keys without a value", async () => {
    const cache = keyedCache<string>(`__test_${randomUUID()}`, () => 60_000);
    const { calls, load } = loader();
    const [a, b] = await Promise.all([cache.getMany(["a", "b", "none1", "a"], load), cache.getMany(["b"], load)]);
    expect([...a]).toEqual([
      ["a", "value of a"],
      ["b", "value of b"],
    ]);
    expect([...b]).toEqual([["b", "value of b"]]);
    expect(calls).toEqual([["a", "b", "none1"]]);

    expect([...(await cache.getMany(["a", "c", "none1"], load)).keys()]).toEqual(["a", "c"]);
    expect(calls).toEqual([["a", "b", "none1"], ["c"]]);
    cache.clear();
    await cache.getMany(["a"], load);
    expect(calls.at(-1)).toEqual(["a"]);
  });

  it("a failed read rejects each caller once and is not kept: the next call reads again", async () => {
    const cache = keyedCache<string>(`__test_${randomUUID()}`, () => 60_000);
    let fail = true;
    const load = async (missing: string[]) => {
      if (fail) throw new Error("database down");
      return new Map(missing.map((k) => [k, k]));
    };
    await expect(cache.getMany(["x", "y", "z"], load)).rejects.toThrow("database down");
    // Nothing cached either: the other keys' rejections must be handled too (vitest fails a run on an unhandled one).
    const uncached = keyedCache<string>(`__test_${randomUUID()}`, () => 0);
    await expect(uncached.getMany(["x", "y", "z"], load)).rejects.toThrow("database down");
    await new Promise((resolve) => setTimeout(resolve, 10));
    fail = false;
    expect([...(await cache.getMany(["x", "y"], load)).keys()]).toEqual(["x", "y"]);
  });

  it("a TTL of 0 caches nothing", async () => {
    const cache = keyedCache<string>(`__test_${randomUUID()}`, () => 0);
    const { calls, load } = loader();
    await cache.getMany(["a"], load);
    await cache.getMany(["a"], load);
    expect(calls).toEqual([["a"], ["a"]]);
  });
});
