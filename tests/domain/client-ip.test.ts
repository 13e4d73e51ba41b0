import { describe, expect, it } from "vitest";
import { clientAddress } from "../../lib/http/client-ip";

const h = (headers: Record<string, string>) => new Headers(headers);

describe("client address for IP rate limits", () => {
  it("forwarded: the entry TRUSTED_PROXY_HOPS from the right, never what the client put on the left", () => {
    const xff = { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.2" };
    expect(clientAddress(h(xff), { source: "forwarded", hops: 1 })).toBe("10.0.0.2");
    expect(clientAddress(h(xff), { source: "forwarded", hops: 2 })).toBe("203.0.113.9");
    expect(clientAddress(h({ "x-forwarded-for": "203.0.113.9" }), { source: "forwarded", hops: 2 })).toBe("203.0.113.9");
    // Without the header nothing identifies the client (and X-Real-IP from a client is not trusted).
    expect(clientAddress(h({ "x-real-ip": "6.6.6.6" }), { source: "forwarded", hops: 1 })).toBe("unknown");
  });

  it("vercel: the platform's header, whatever X-Forwarded-For says", () => {
    const headers = h({ "x-forwarded-for": "6.6.6.6", "x-vercel-forwarded-for": "198.51.100.4", "x-real-ip": "198.51.100.4" });
    expect(clientAddress(headers, { source: "vercel", hops: 1 })).toBe("198.51.100.4");
    expect(clientAddress(h({ "x-real-ip": "198.51.100.5" }), { source: "vercel", hops: 1 })).toBe("198.51.100.5");
  });

  it("none: one shared identity", () => {
    expect(clientAddress(h({ "x-forwarded-for": "203.0.113.9" }), { source: "none", hops: 1 })).toBe("unknown");
  });
});
