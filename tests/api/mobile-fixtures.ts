import { inject } from "vitest";
import { baseUrl } from "../helpers";

// What the mobile tests share (mobile.test.ts, mobile-session.test.ts): the app's redirect URI, the identity
// provider stand-in's control API and a request that does not follow redirects.

const standIn = inject("fixtures").clerk!.url!;
export const APP = "fanapp://auth/callback";

export async function control(path: string, body?: unknown, method = "POST") {
  const res = await fetch(`${standIn}/__control/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

export async function raw(path: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, { redirect: "manual", headers });
}
