import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import { db } from "../../lib/db/client";
import { runDropsCron } from "../../lib/features/drops/ordering";
import { getDrop } from "../../lib/features/drops/service";
import { registerFeatureCheck } from "../../lib/http/features";
import { api, fan, newUser, testPack } from "../helpers";

// The drops follow the `packs` kill switch (docs/decisions/0066): while packs are paused for everyone, the drops cron
// and the read that runs a due draw do nothing. A pause for everyone would refuse every other test file's pack
// requests on the shared server, so it is set here, in this process only, by registering the checker the server
// registers from lib/features/config/gate.ts (tests/domain/config.test.ts does the same for the pipeline). The drop itself is
// real: created, entered and made due through the API and the database.

afterAll(async () => {
  await db.$disconnect();
});

/** The real client, counting the transactions it is asked for (every draw and every claim is one). */
function counting(): { db: Db; transactions: () => number } {
  let n = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "$transaction") {
        return (...args: Parameters<Db["$transaction"]>) => {
          n++;
          return (target.$transaction as (...a: unknown[]) => unknown)(...args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db: proxy, transactions: () => n };
}

it("runs no draw while packs are paused for everyone (cron and read); resumed, the due draw runs", async () => {
  const drop = await api("POST", "/api/admin/drops", {
    headers: newUser({ admin: true }).auth,
    json: {
      name: "Paused cron drop",
      packId: await testPack("paused_cron", 1_000),
      mode: "draw",
      price: 1_000,
      quantity: 1,
      perUserCap: 1,
      opensAt: new Date(Date.now() - 60_000).toISOString(),
      closesAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(drop.status, drop.text).toBe(201);
  const dropId = drop.body.data.drop.id as string;
  const entrant = await fan(1_000);
  const entered = await api("POST", `/api/v1/drops/${dropId}/entry`, { headers: { ...entrant.auth, "idempotency-key": randomUUID() } });
  expect(entered.status, entered.text).toBe(201);
  await db.$executeRaw`UPDATE drops SET opens_at = now() - interval '2 hours', closes_at = now() - interval '1 second' WHERE id = ${dropId}::uuid`;

  registerFeatureCheck((feature) => (feature === "packs" ? "Packs are paused." : null));
  const paused = counting();
  expect(await runDropsCron(paused.db)).toEqual({ drawn: 0, queuesOrdered: 0, packsPaused: true });
  const read = await getDrop(paused.db, dropId, undefined);
  expect(read.drop.orderedAt).toBeNull();
  expect(paused.transactions()).toBe(0);

  // Resumed: the due draw runs (here, or by the server's cron another file called meanwhile).
  registerFeatureCheck(() => null);
  const resumed = counting();
  const result = await runDropsCron(resumed.db);
  expect(result.packsPaused).toBe(false);
  expect(resumed.transactions()).toBeGreaterThan(0);
  const after = await getDrop(db, dropId, undefined);
  expect(after.drop.status).toBe("drawn");
  expect(after.order).toEqual([expect.objectContaining({ userId: entrant.id, won: 1, outcome: "won" })]);
});
