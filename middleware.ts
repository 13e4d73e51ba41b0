import { clerkMiddleware } from "@clerk/nextjs/server";
import type { NextMiddleware } from "next/server";
import { errorBody, isMalformedPath, malformedPathAnswer, PAGE_SECURITY_HEADERS } from "./lib/http/bare";

// Clerk's middleware for the staff console and the fans' account pages only. It keeps a console session alive: when the short-lived session
// token in `__session` has expired, Clerk refreshes it (handshake or refresh cookie) instead of the page bouncing the
// staff member to the sign-in page. It is not the gate: every console page and server action still checks the
// session and the staff role itself (app/admin/_lib/gate.ts, lib/auth/staff.ts).
//
// It also answers a cross-origin server action 403 (crossOriginAction), which Next itself answers 500.
//
// /api never passes through here (see `config.matcher`): any middleware on /api costs a bare route 35–60% of its
// throughput; the API verifies session tokens in its own pipeline (lib/http/route.ts, lib/auth/tokens.ts). The one
// exception is a path whose percent escapes may not decode (the matcher's last entry): answered 400 here when they
// do not, passed on untouched when they do.
//
// Active only with Clerk configured: a publishable key (CLERK_PUBLISHABLE_KEY at run time, or
// NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY, which Next inlines at build time) and CLERK_SECRET_KEY. Without them
// (development, tests) it lets every request through untouched and the development identity provider's flow
// (/dev/sign-in) is unchanged.

process.env.CLERK_TELEMETRY_DISABLED ??= "1";

const publishableKey = process.env.CLERK_PUBLISHABLE_KEY || process.env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY;
const active = Boolean(publishableKey && process.env.CLERK_SECRET_KEY);

const clerk: NextMiddleware | undefined = active
  ? clerkMiddleware({
      publishableKey,
      // Networkless: the same PEM public key the API imports (lib/auth/tokens.ts); without it Clerk fetches its JWKS.
      jwtKey: process.env.CLERK_JWT_KEY?.replace(/\\n/g, "\n") || undefined,
      authorizedParties: process.env.CLERK_AUTHORIZED_PARTIES?.split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      clockSkewInMs: process.env.CLERK_CLOCK_SKEW_MS ? Number(process.env.CLERK_CLOCK_SKEW_MS) : 5_000,
      // The secret key stays Clerk's own env read (CLERK_SECRET_KEY): passed as an option, Clerk would need
      // CLERK_ENCRYPTION_KEY to forward it to the page.
    })
  : undefined;

/**
 * A cross-origin server action, refused with 403 (Next refuses it too, but answers 500 "Invalid Server Actions
 * request"). A POST is a possible server action when it carries `Next-Action` or is a multipart form; it is
 * cross-origin by Next's own rule (app-render/action-handler.js): its Origin's host is not x-forwarded-host's first
 * value, else Host (no serverActions.allowedOrigins is configured). A POST without Origin is left to Next, which lets
 * it through as a handcrafted request (a browser always sends one). Header reads only: free on every other request.
 * Not /dev/sign-in nor Clerk's proxy path: neither has server actions.
 */
function crossOriginAction(req: Request, pathname: string): Response | undefined {
  if (req.method !== "POST") return undefined;
  if (!/^\/(admin|account)(\/|$)/.test(pathname)) return undefined;
  if (!req.headers.has("next-action") && !req.headers.get("content-type")?.startsWith("multipart/form-data")) return undefined;
  const origin = req.headers.get("origin");
  if (origin === null) return undefined;
  const host = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || req.headers.get("host");
  if (host && origin !== "null" && URL.canParse(origin) && new URL(origin).host === host) return undefined;
  return Response.json(errorBody("FORBIDDEN", "A console or account action must come from this site's own pages (cross-origin request refused)."), {
    status: 403,
    headers: { ...PAGE_SECURITY_HEADERS, "Cache-Control": "no-store" },
  });
}

/** The paths Clerk's middleware serves: the first four entries of `config.matcher` (and their .rsc and data forms). */
const CLERK_PATH = /^\/(_next\/data\/[^/]+\/)?(admin([/.]|$)|account\/|dev\/sign-in(\.json|\.rsc)?$|__clerk\/)/;

export default function middleware(...args: Parameters<NextMiddleware>): ReturnType<NextMiddleware> {
  const [req] = args;
  // The raw path (req.nextUrl may normalise it): a percent escape that does not decode is a 400 here, not Next's 500.
  const { pathname } = new URL(req.url);
  if (isMalformedPath(pathname)) return malformedPathAnswer(pathname, req.headers.get("x-request-id"));
  return crossOriginAction(req, pathname) ?? (CLERK_PATH.test(pathname) ? clerk?.(...args) : undefined);
}

export const config = {
  runtime: "nodejs",
  // The console (/admin and everything under it), the fans' account pages (/account/*: deleting an account), the
  // development provider's sign-in page both send to,
  // and Clerk's Frontend API proxy path (Clerk turns it on by itself for production keys on *.vercel.app hosts).
  // Never /api, /_next, /files or /docs (tests/e2e/middleware.test.ts), but for the last entry: any path holding a
  // `%` that does not start an ASCII escape (`%ZZ`, `%` at the end, `%FF`, `%C3%A9`). Next decodes a dynamic segment
  // before any route runs and answers one that does not decode with a bare 500 text/plain (no JSON, no security
  // headers); here it is a 400 (lib/http/bare.ts). Other paths never invoke the middleware (decision 0067).
  matcher: ["/admin/:path*", "/account/:path*", "/dev/sign-in", "/__clerk/:path*", "/:path(.*%(?![0-7][0-9A-Fa-f]).*)"],
};
