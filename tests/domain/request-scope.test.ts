import { describe, expect, it } from "vitest";
import { inRequestScope, outsideRequests, requestState } from "../../lib/kernel/request-scope";

// The pipeline's request scope (lib/kernel/request-scope.ts): per-request state, and work that runs once the handler
// succeeded, in the order it was registered; none when it failed.

describe("request scope", () => {
  const KEY = Symbol("test state");
  const note = (ran: string[], what: string) =>
    requestState(KEY, (afterSuccess) => {
      afterSuccess(async () => void ran.push(`after ${what}`));
      return what;
    });

  it("keeps state per request, made once, and runs its after-success work once the handler succeeded", async () => {
    const ran: string[] = [];
    const result = await inRequestScope(async () => {
      expect(note(ran, "first")).toBe("first");
      expect(note(ran, "second")).toBe("first"); // made once per request
      ran.push("handler");
      return 42;
    });
    expect(result).toBe(42);
    expect(ran).toEqual(["handler", "after first"]);
  });

  it("runs no after-success work when the handler fails, and has no state outside a request", async () => {
    const ran: string[] = [];
    await expect(
      inRequestScope(async () => {
        note(ran, "x");
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(ran).toEqual([]);
    expect(note(ran, "y")).toBeUndefined();
    await inRequestScope(async () => expect(outsideRequests(() => note(ran, "z"))).toBeUndefined());
  });
});
