import { describe, expect, it } from "vitest";
import { pathTemplate } from "../../lib/http/idempotency";

// The route option `idempotency` scopes a key to its route: the method and the path template the pipeline derives
// from the request's path and params (lib/http/idempotency.ts), as the stored keys name them.

describe("pathTemplate", () => {
  it("puts each param's name where its value is, and leaves a path without params as it is", () => {
    expect(pathTemplate("/api/v1/marketplace/listings/0199aa/buy", { listingId: "0199aa" })).toBe("/api/v1/marketplace/listings/{listingId}/buy");
    expect(pathTemplate("/api/v1/packs/pk%20one/purchases", { packId: "pk one" })).toBe("/api/v1/packs/{packId}/purchases");
    expect(pathTemplate("/api/v1/marketplace/checkout", undefined)).toBe("/api/v1/marketplace/checkout");
    expect(pathTemplate("/api/v1/marketplace/offers", {})).toBe("/api/v1/marketplace/offers");
  });
});
