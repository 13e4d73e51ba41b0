import { describe, expect, it } from "vitest";
import { FeedItemType, FeedSignalType } from "../../lib/generated/prisma/enums";
import { SIGNAL_ITEM_TYPES, SIGNAL_TYPES, signalBatch } from "../../lib/core/signals/schemas";

describe("feed signal schemas", () => {
  it("list exactly the values of the PostgreSQL enums", () => {
    expect([...SIGNAL_TYPES].sort()).toEqual(Object.values(FeedSignalType).sort());
    expect([...SIGNAL_ITEM_TYPES].sort()).toEqual(Object.values(FeedItemType).sort());
  });

  it("bound the client's clock: 24 h back, 5 min ahead", () => {
    const at = (offsetMs: number) =>
      signalBatch.safeParse({ events: [{ type: "view", itemType: "team", itemId: "tm_hch", at: new Date(Date.now() + offsetMs).toISOString() }] });
    expect(at(-24 * 3_600_000 + 60_000).success).toBe(true);
    expect(at(4 * 60_000).success).toBe(true);
    expect(at(-24 * 3_600_000 - 60_000).success).toBe(false);
    expect(at(6 * 60_000).success).toBe(false);
  });
});
