import { ensureDevKeyPair } from "@/lib/auth/keys";
import { signSessionToken } from "@/lib/auth/sign";
import { env } from "@/lib/env";
import { identityProvider } from "@/lib/auth/identity-provider";
import { SESSION_COOKIE } from "@/lib/auth/cookies";

// Development provider's sign-in page: type a user id, get a session cookie, go back to the callback.
// Exists only while the development identity provider is in use (no CLERK_SECRET_KEY, not production).

const enabled = () => env().NODE_ENV !== "production" && identityProvider().name === "development";
const notFound = () => new Response("Not found", { status: 404 });
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Only back to this app (the callback URL the mobile flow built), never elsewhere. */
function safeReturn(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw, env().APP_URL);
    return url.origin === new URL(env().APP_URL).origin ? url.toString() : null;
  } catch {
    return null;
  }
}

export async function GET(req: Request) {
  if (!enabled()) return notFound();
  const params = new URL(req.url).searchParams;
  const back = safeReturn(params.get("redirect_url")) ?? "/";
  const html = `<!doctype html><meta charset="utf-8"><title>Development sign-in</title>
<body style="font-family:system-ui;max-width:420px;margin:64px auto">
<h1>Development sign-in</h1>
<p>Signing in with <b>${escape(params.get("provider") ?? "?")}</b> is simulated locally. Any user id works.</p>
<form method="post"><input type="hidden" name="redirect_url" value="${escape(back)}">
<label>User id <input name="userId" value="user_dev" pattern="[A-Za-z0-9_]{3,64}" required></label>
<label><input type="checkbox" name="admin"> staff (admin role)</label>
<p><button>Sign in</button></p></form></body>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

export async function POST(req: Request) {
  if (!enabled()) return notFound();
  const form = await req.formData();
  const userId = String(form.get("userId") ?? "");
  const back = safeReturn(String(form.get("redirect_url") ?? ""));
  if (!/^[A-Za-z0-9_]{3,64}$/.test(userId) || !back) return new Response("Bad request", { status: 400 });
  const token = signSessionToken(ensureDevKeyPair().privateKey, userId, {
    admin: form.get("admin") === "on",
    extra: { azp: new URL(env().APP_URL).origin }, // as Clerk's browser sessions carry the page's origin
  });
  return new Response(null, {
    status: 303,
    headers: { Location: back, "Set-Cookie": `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600` },
  });
}
