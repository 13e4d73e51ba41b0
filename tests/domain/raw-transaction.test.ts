import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../../lib/db/client";
import { rawTransaction } from "../../lib/db/raw";
import { lockUser } from "../../lib/db/tx";

// rawTransaction on the app's client runs BEGIN … COMMIT on one pooled connection without Prisma's client: every
// statement of the work in that transaction, committed together or not at all.

afterAll(() => db.$disconnect());

const newUser = () => db.user.create({ data: { externalId: `user_rawtx_${randomUUID()}` } });
const pointsOf = async (id: string) => Number((await db.user.findUniqueOrThrow({ where: { id } })).questPoints);

describe("rawTransaction (the app's client)", () => {
  it("commits the work's statements together and answers its result", async () => {
    const user = await newUser();
    const result = await rawTransaction(db, async (tx) => {
      await tx.$executeRaw`UPDATE users SET quest_points = quest_points + 5 WHERE id = ${user.id}::uuid`;
      await tx.$executeRaw`UPDATE users SET quest_points = quest_points + 7 WHERE id = ${user.id}::uuid`;
      return "done";
    });
    expect(result).toBe("done");
    expect(await pointsOf(user.id)).toBe(12);
  });

  it("rolls everything back when the work throws or a statement fails, and the pool keeps working", async () => {
    const user = await newUser();
    await expect(
      rawTransaction(db, async (tx) => {
        await tx.$executeRaw`UPDATE users SET quest_points = 5 WHERE id = ${user.id}::uuid`;
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await expect(
      rawTransaction(db, async (tx) => {
        await tx.$executeRaw`UPDATE users SET quest_points = 6 WHERE id = ${user.id}::uuid`;
        await tx.$executeRaw`UPDATE users SET external_id = NULL WHERE id = ${user.id}::uuid`; // NOT NULL violation
      }),
    ).rejects.toMatchObject({ code: "23502" });
    expect(await pointsOf(user.id)).toBe(0);
    // Every connection went back to the pool usable (more transactions than the pool has connections).
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => rawTransaction(db, async (tx) => (await tx.$queryRaw<{ n: number }[]>`SELECT ${i}::int AS n`)[0]!.n)),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("holds a row lock for the whole work: twenty concurrent read-then-write increments lose none", async () => {
    const user = await newUser();
    await Promise.all(
      Array.from({ length: 20 }, () =>
        rawTransaction(db, async (tx) => {
          await lockUser(tx, user.id);
          const [{ points }] = (await tx.$queryRaw<{ points: bigint }[]>`SELECT quest_points AS points FROM users WHERE id = ${user.id}::uuid`) as [
            { points: bigint },
          ];
          await tx.$executeRaw`UPDATE users SET quest_points = ${Number(points) + 1} WHERE id = ${user.id}::uuid`;
        }),
      ),
    );
    expect(await pointsOf(user.id)).toBe(20);
  });
});
