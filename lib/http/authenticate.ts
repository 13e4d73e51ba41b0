import { mayOpen } from "../auth/roles";
import { verifySessionToken, type Identity } from "../auth/tokens";
import { isSuspended, resolveUser, type AuthUser } from "../auth/users";
import { env } from "../env";
import { DomainError, sharedErrors } from "../kernel/errors";
import { routeLabel } from "./answers";
import { readLimitedBody } from "./body";
import { clientAddress } from "./client-ip";
import { verifyCron, verifySignature, webhookSecret } from "./machine-auth";
import { DEFAULT_BODY_LIMIT, type AnyRouteConfig, type AuthMode, type WebhookDelivery } from "./route-config";

// Who is calling (lib/http/route.ts's first step): a session token resolved to its user (suspension and the staff
// area checked), a cron's secret or a webhook's signature; and the key a caller's rate limit counts under.

export async function authenticate(req: Request, c: AnyRouteConfig): Promise<{ user: AuthUser | null; delivery?: WebhookDelivery }> {
  const mode = c.auth;
  if (mode === "public") return { user: null };
  if (mode === "cron") {
    verifyCron(env().CRON_SECRET, req.headers.get("authorization"));
    return { user: null };
  }
  if (mode === "webhook") {
    // The limit applies before the signature is checked: an unsigned flood costs no more than the limit each.
    const rawBody = await readLimitedBody(req, c.bodyLimit ?? DEFAULT_BODY_LIMIT);
    const { secret, verifier } = c.webhook!;
    const id = verifier ? await verifier.verify(req.headers, rawBody) : verifySignature(webhookSecret(secret!), req.headers.get("x-signature"), rawBody);
    return { user: null, delivery: { id, rawBody } };
  }
  const header = req.headers.get("authorization");
  if (!header) {
    if (mode === "optional") return { user: null };
    throw new DomainError(sharedErrors.UNAUTHORIZED, "Sign in required: send Authorization: Bearer <session token>.");
  }
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  if (!match) throw new DomainError(sharedErrors.UNAUTHORIZED, "The Authorization header must be 'Bearer <session token>'.");
  const identity: Identity = await verifySessionToken(match[1]!);
  if (mode === "admin") {
    if (!identity.role) throw new DomainError(sharedErrors.FORBIDDEN, "This route is for staff only.");
    const area = c.staffArea ?? "admin";
    if (!mayOpen(identity.role, area)) throw new DomainError(sharedErrors.FORBIDDEN, `This route is for staff whose role opens the ${area} area.`);
  }
  const user = await resolveUser(identity);
  if (isSuspended(user) && !c.allowSuspended) {
    const until = user.suspendedUntil!.toISOString();
    throw new DomainError(
      sharedErrors.ACCOUNT_SUSPENDED,
      `Your account is suspended until ${until}. You can read your moderation actions and appeal them (GET /api/v1/me/moderation-actions), and export your data (POST /api/v1/me/exports).`,
      [{ path: "suspendedUntil", message: until }],
    );
  }
  return { user };
}

/** Whose bucket a request spends: the user's, the route's (machines), or the client address's. */
export function rateLimitKey(req: Request, mode: AuthMode, user: AuthUser | null): string {
  if (user) return `u:${user.id}`;
  if (mode === "cron" || mode === "webhook") return `route:${req.method} ${routeLabel(req)}`;
  return `ip:${clientAddress(req.headers)}`;
}
