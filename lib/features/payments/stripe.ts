import Stripe from "stripe";
import { z } from "zod";
import type { Db } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { env } from "../../env";
import { DomainError, notFound } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { UUID_PATTERN } from "../../kernel/schemas";
import type { WebhookVerifier } from "../../http/route";
import { assertMayBuyCoins } from "../moderation/service";
import { assertWithinLimits } from "../spending/service";
import { answerTo, clawBack, creditPurchase, failPurchase, ignoreEvent, restoreDispute, toTopup, type WebhookAnswer } from "./credit-and-clawback";
import { errors as paymentsErrors } from "./errors";
import { stripeMode } from "./modes";
import { activeProduct, creditedPurchases, insertPending, setCheckout } from "./queries";
import type { ProviderReconciliation, Settled } from "./provider";
import type { CreateTopupInput } from "./schemas";

// Stripe through its official library: card top-ups (a Checkout Session per purchase), the webhook that credits them
// and claws refunds and disputes back (credit-and-clawback.ts), and the reconciliation's Stripe side. Configured by
// STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (both, or its routes answer 503 PAYMENTS_UNAVAILABLE); STRIPE_API_URL
// points the client at another address (the local stand-in, dev/standins/stripe.ts, under `npm run dev` and in
// tests). Webhook signatures are checked by the library.

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

// Checkout -----------------------------------------------------------------------------------------------------------

const PROVIDER = "stripe";

function returnUrl(topupId: string, result: "success" | "cancel") {
  const url = new URL(env().STRIPE_RETURN_URL ?? env().APP_URL);
  url.searchParams.set("topup", topupId);
  url.searchParams.set("result", result);
  return url.toString();
}

/**
 * Starts a card top-up: a pending purchase and a Stripe Checkout Session for the bundle, once per Idempotency-Key
 * (a retry answers the same session). The wallet is credited by the webhook only, never by the browser's return.
 * Refused, as GET /api/v1/me/eligibility says, to a fan restricted from trading or whose deletion is pending
 * (assertMayBuyCoins): coins are forfeited at erasure.
 */
export async function createTopup(db: Db, userId: string, input: CreateTopupInput, idempotency: IdempotencyKey) {
  const client = stripe();
  await assertMayBuyCoins(db, userId);
  const product = await activeProduct(db, input.productId);
  if (!product) throw notFound("Product");
  const amount = product.prices[input.currency];
  if (amount === undefined) {
    throw new DomainError(
      paymentsErrors.CURRENCY_NOT_OFFERED,
      `${product.name} is not sold in ${input.currency.toUpperCase()}; it is in ${Object.keys(product.prices).join(", ").toUpperCase()}.`,
    );
  }
  return idempotent(db, { userId, ...idempotency, request: input }, async (tx) => {
    // The coins bought today and this month, under the wallet's lock (lib/features/spending): concurrent checkouts count each other.
    await assertWithinLimits(tx, userId, "topups", product.coins);
    const id = uuidv7();
    await insertPending(tx, { id, userId, productId: product.id, provider: PROVIDER, coins: product.coins, amount, currency: input.currency });
    let session: { id: string; url: string | null };
    try {
      session = await client.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount: amount, product_data: { name: product.name } } }],
          client_reference_id: id,
          metadata: { topupId: id, userId, productId: product.id, coins: String(product.coins) },
          payment_intent_data: { metadata: { topupId: id } },
          success_url: returnUrl(id, "success"),
          cancel_url: returnUrl(id, "cancel"),
        },
        { idempotencyKey: `topup_${id}` },
      );
    } catch (error) {
      log("warn", { msg: "stripe checkout failed", error: (error as Error).message });
      throw new DomainError(paymentsErrors.PAYMENTS_PROVIDER_ERROR, "The card payment provider could not start a checkout; nothing was charged. Retry.");
    }
    if (!session.url) throw new DomainError(paymentsErrors.PAYMENTS_PROVIDER_ERROR, "The card payment provider answered no checkout URL; retry.");
    const row = await setCheckout(tx, id, session.id, session.url);
    return { topup: toTopup(row), checkoutUrl: session.url };
  });
}

// Webhook ------------------------------------------------------------------------------------------------------------

const ref = z.union([z.string(), z.looseObject({ id: z.string() })]).nullish();
const refId = (r: z.infer<typeof ref>) => (typeof r === "string" ? r : (r?.id ?? null));

const sessionObject = z.looseObject({
  id: z.string(),
  payment_intent: ref,
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
const chargeObject = z.looseObject({ payment_intent: ref, amount: z.number().int(), amount_refunded: z.number().int() });
const disputeObject = z.looseObject({ payment_intent: ref, amount: z.number().int(), status: z.string().optional() });

/** Processes a verified Stripe event (the raw body the signature covered), at most once per event id. */
export async function handleStripeEvent(db: Db, rawBody: Buffer): Promise<WebhookAnswer> {
  const event = parseStripeEvent(rawBody);
  const base = { provider: PROVIDER, eventId: event.id, type: event.type };
  const answer = answerTo(event.id);
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const s = sessionObject.safeParse(event.object);
      const m = s.success ? s.data.metadata : undefined;
      const txnId = s.success ? refId(s.data.payment_intent) : null;
      // Unpaid (a delayed payment method): async_payment_succeeded credits it later.
      const ours = m && UUID_PATTERN.test(m.topupId ?? "") && UUID_PATTERN.test(m.userId ?? "") && m.productId && /^\d{1,15}$/.test(m.coins ?? "");
      if (!s.success || s.data.payment_status !== "paid" || !txnId || !m || !ours) {
        return answer(await ignoreEvent(db, { ...base, txnId }));
      }
      return answer(
        await creditPurchase(db, {
          ...base,
          txnId,
          id: m.topupId!.toLowerCase(),
          userId: m.userId!.toLowerCase(),
          productId: m.productId!,
          coins: Number(m.coins),
          amount: s.data.amount_total ?? 0,
          currency: s.data.currency ?? "usd",
        }),
      );
    }
    case "checkout.session.expired":
    case "checkout.session.async_payment_failed": {
      const s = sessionObject.safeParse(event.object);
      const topupId = s.success ? s.data.metadata?.topupId : undefined;
      if (!topupId || !UUID_PATTERN.test(topupId)) return answer(await ignoreEvent(db, { ...base, txnId: null }));
      return answer(await failPurchase(db, { ...base, id: topupId.toLowerCase() }));
    }
    case "charge.refunded": {
      const c = chargeObject.safeParse(event.object);
      const txnId = c.success ? refId(c.data.payment_intent) : null;
      if (!c.success || !txnId) return answer(await ignoreEvent(db, { ...base, txnId }));
      return answer(await clawBack(db, { ...base, txnId, kind: "refund", cumulative: c.data.amount_refunded }));
    }
    case "charge.dispute.created": {
      const d = disputeObject.safeParse(event.object);
      const txnId = d.success ? refId(d.data.payment_intent) : null;
      if (!d.success || !txnId) return answer(await ignoreEvent(db, { ...base, txnId }));
      return answer(await clawBack(db, { ...base, txnId, kind: "dispute", cumulative: d.data.amount }));
    }
    case "charge.dispute.closed": {
      const d = disputeObject.safeParse(event.object);
      const txnId = d.success ? refId(d.data.payment_intent) : null;
      // Lost: the coins stay clawed back. Won (or an inquiry closed without a chargeback): they come back.
      if (!d.success || !txnId || !["won", "warning_closed"].includes(d.data.status ?? "")) return answer(await ignoreEvent(db, { ...base, txnId }));
      return answer(await restoreDispute(db, { ...base, txnId }));
    }
    default:
      return answer(await ignoreEvent(db, { ...base, txnId: null }));
  }
}

// Reconciliation -----------------------------------------------------------------------------------------------------

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
