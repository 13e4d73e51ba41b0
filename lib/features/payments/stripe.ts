import Stripe from "stripe";
import { z } from "zod";
import { env } from "../../env";
import { DomainError } from "../../kernel/errors";
import { log } from "../../kernel/log";
import type { WebhookVerifier } from "../../http/route";
import { errors as paymentsErrors } from "./errors";
import { stripeMode } from "./modes";
import { creditedPurchases } from "./queries";
import type { ProviderReconciliation, Settled } from "./provider";

// Stripe through its official library. Configured by STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (both, or its
// routes answer 503 PAYMENTS_UNAVAILABLE); STRIPE_API_URL points the client at another address (the local stand-in,
// dev/standins/stripe.ts, under `npm run dev` and in tests). Webhook signatures are checked by the library.

/** Accepted age of a Stripe-Signature timestamp, in seconds (Stripe's own default). */
export const STRIPE_TOLERANCE_S = 300;

export { stripeMode, type StripeMode } from "./modes";

export const paymentsUnavailable = () =>
  new DomainError(paymentsErrors.PAYMENTS_UNAVAILABLE, "Card top-ups are not available on this deployment (Stripe is not configured).");

let client: Stripe | undefined;

/** The Stripe client (one per process), or 503 PAYMENTS_UNAVAILABLE when Stripe is not configured. */
export function stripe(): Stripe {
  if (stripeMode() === "unconfigured") throw paymentsUnavailable();
  return (client ??= createClient());
}

function createClient(): Stripe {
  const e = env();
  const config: NonNullable<ConstructorParameters<typeof Stripe>[1]> = { maxNetworkRetries: 1, timeout: 5_000, telemetry: false };
  if (e.STRIPE_API_URL) {
    const api = new URL(e.STRIPE_API_URL);
    config.protocol = api.protocol === "https:" ? "https" : "http";
    config.host = api.hostname;
    config.port = api.port || (config.protocol === "https" ? 443 : 80);
  }
  return new Stripe(e.STRIPE_SECRET_KEY!, config);
}

const invalid = (why: string) => new DomainError(paymentsErrors.INVALID_SIGNATURE, why);

/**
 * The Stripe webhook's auth (route option `webhook.verifier`): `Stripe-Signature` checked by stripe.webhooks
 * .constructEvent over the raw body, with STRIPE_WEBHOOK_SECRET and a 300 s tolerance. Answers the event id.
 */
export const stripeSignature: WebhookVerifier = {
  scheme: {
    name: "stripeSignature",
    header: "Stripe-Signature",
    description: `Stripe's webhook signature (\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`) keyed with the endpoint's signing secret STRIPE_WEBHOOK_SECRET, checked by the stripe library; \`t\` at most ${STRIPE_TOLERANCE_S} s old.`,
  },
  errors: [paymentsErrors.INVALID_SIGNATURE, paymentsErrors.INVALID_EVENT, paymentsErrors.PAYMENTS_UNAVAILABLE],
  verify(headers, rawBody) {
    if (stripeMode() === "unconfigured") throw paymentsUnavailable();
    const header = headers.get("stripe-signature");
    if (!header) throw invalid("Missing Stripe-Signature header.");
    try {
      Stripe.webhooks.signature!.verifyHeader(rawBody, header, env().STRIPE_WEBHOOK_SECRET!, STRIPE_TOLERANCE_S);
    } catch (error) {
      throw invalid(`Invalid Stripe-Signature: ${(error as Error).message.split("\n")[0]!.slice(0, 200)}`);
    }
    return parseStripeEvent(rawBody).id;
  },
};

/** An event id or type as Stripe writes them (`evt_…`, `checkout.session.completed`): printable ASCII, no NUL. */
const token = z.string().regex(/^[\x21-\x7e]{1,255}$/);
const envelope = z.looseObject({ id: token, type: token, data: z.unknown().optional() });

export interface StripeEvent {
  id: string;
  type: string;
  /** `data.object`: undefined when the event has none (each type's handler then ignores the event). */
  object: unknown;
}

/**
 * The event a verified body holds: a JSON object with an id and a type. A body that is none (not JSON, an array,
 * `{}`, an id that is no string) is 400 INVALID_EVENT, logged: it was signed with the endpoint's secret but is
 * nothing Stripe sends, so there is nothing to record it under (a missing `data.object` is still an event: ignored).
 */
export function parseStripeEvent(rawBody: Buffer): StripeEvent {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString("utf8"));
  } catch {
    json = undefined;
  }
  const event = envelope.safeParse(json);
  if (!event.success) {
    const issue = event.error.issues[0];
    log("warn", {
      msg: "stripe webhook: signed body is not an event",
      bytes: rawBody.length,
      issue: issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : undefined,
    });
    throw new DomainError(
      paymentsErrors.INVALID_EVENT,
      "The signed body is not a Stripe event (a JSON object with a string id and type); nothing was processed.",
    );
  }
  const { data } = event.data;
  const object = data !== null && typeof data === "object" && !Array.isArray(data) ? (data as { object?: unknown }).object : undefined;
  return { id: event.data.id, type: event.data.type, object };
}

/** The reconciliation's Stripe side: its paid charges created since the window's start (the library's auto-pagination). */
export const stripeReconciliation: ProviderReconciliation = {
  provider: "stripe",
  configured: () => stripeMode() !== "unconfigured",
  async gather(db, since) {
    const theirs: Settled[] = [];
    for await (const c of stripe().charges.list({ created: { gte: Math.floor(since.getTime() / 1000) }, limit: 100 })) {
      const txnId = typeof c.payment_intent === "string" ? c.payment_intent : c.payment_intent?.id;
      if (!c.paid || !txnId) continue;
      theirs.push({ txnId, amount: c.amount, refunded: c.amount_refunded, disputed: c.disputed, created: c.created * 1000 });
    }
    const ours = await creditedPurchases(
      db,
      "stripe",
      since,
      theirs.map((s) => s.txnId),
    );
    return { theirs, ours };
  },
};
