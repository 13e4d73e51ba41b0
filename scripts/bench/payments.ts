// Money in: Stripe's webhook under load. Each `checkout.session.completed` event (a fresh top-up of PAYERS fans in
// turn) is delivered DELIVERIES times in a row, so concurrent connections race duplicates of one event, as Stripe's
// retries and a slow answer do. Before the timed case, a burst checks the rule: BURST_EVENTS distinct events,
// each delivered DELIVERIES times, all at once with the buyer's own reads of each top-up, credit every purchase
// exactly once.
import { randomUUID } from "node:crypto";
import pg from "pg";
import Stripe from "stripe";
import { signSessionToken } from "../../lib/auth/sign";
import { type Case, DB_URL, ensureUsers, postEach } from "./common";

const PAYERS = 1_000;
const PAYER_SUB = (i: number) => `user_bench_payer_${i}`;
const DELIVERIES = 4;
const BURST_EVENTS = 50;
const PRODUCT = { id: "coins_bench", coins: 50_000, amount: 499 };
/** The webhook secret the bench server is started with (scripts/bench/server.ts). */
export const BENCH_STRIPE_WEBHOOK_SECRET = "whsec_bench_local_only";

/** The payers (once per database) and the bundle they buy. */
export async function preparePayments(): Promise<{ payers: string[] }> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const subs = Array.from({ length: PAYERS }, (_, i) => PAYER_SUB(i));
  await ensureUsers(client, subs);
  const { rows } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = ANY($1::text[]) ORDER BY external_id`, [subs]);
  await client.query(
    `INSERT INTO coin_products (id, name, coins, prices, active, sort_order) VALUES ($1, 'Bench coins', $2, $3::jsonb, false, 99) ON CONFLICT (id) DO NOTHING`,
    [PRODUCT.id, PRODUCT.coins, JSON.stringify({ usd: PRODUCT.amount })],
  );
  await client.end();
  return { payers: rows.map((r) => r.id) };
}

/** A signed `checkout.session.completed` of a new top-up by `userId`. */
function completedEvent(userId: string) {
  const topupId = randomUUID();
  const payload = JSON.stringify({
    id: `evt_bench_${randomUUID().replace(/-/g, "")}`,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        object: "checkout.session",
        id: `cs_bench_${topupId.replace(/-/g, "")}`,
        payment_status: "paid",
        payment_intent: `pi_bench_${topupId.replace(/-/g, "")}`,
        amount_total: PRODUCT.amount,
        currency: "usd",
        metadata: { topupId, userId, productId: PRODUCT.id, coins: String(PRODUCT.coins) },
      },
    },
  });
  return { topupId, payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: BENCH_STRIPE_WEBHOOK_SECRET }) };
}

/**
 * The burst: BURST_EVENTS purchases, each event delivered DELIVERIES times, all at once with each buyer reading the
 * top-up; then each purchase's credits counted in the ledger.
 */
export async function measureWebhookBurst(base: string, privateKey: string, { payers }: { payers: string[] }) {
  const events = Array.from({ length: BURST_EVENTS }, (_, i) => ({ ...completedEvent(payers[i]!), sub: PAYER_SUB(i) }));
  const deliver = (e: (typeof events)[number]) =>
    fetch(`${base}/api/webhooks/stripe`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": e.signature }, body: e.payload });
  const read = (e: (typeof events)[number]) =>
    fetch(`${base}/api/v1/wallet/topups/${e.topupId}`, { headers: { authorization: `Bearer ${signSessionToken(privateKey, e.sub, { ttlSeconds: 600 })}` } });
  const answers = await Promise.all(events.flatMap((e) => [...Array.from({ length: DELIVERIES }, () => deliver(e)), read(e)]));
  const failed = answers.filter((r) => r.status >= 500).length;
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows } = await client.query<{ n: string }>(
    `SELECT count(t.id) AS n FROM unnest($1::text[]) AS p(id) LEFT JOIN wallet_transactions t ON t.reference_type = 'coin_purchase' AND t.reference_id = p.id AND t.amount > 0
     GROUP BY p.id`,
    [events.map((e) => e.topupId)],
  );
  await client.end();
  return { events: BURST_EVENTS, deliveries: BURST_EVENTS * DELIVERIES, failed, creditedOnce: rows.filter((r) => Number(r.n) === 1).length };
}

/** The payments cases, in the runner's order. */
export function paymentCases(base: string, { payers }: { payers: string[] }): Case[] {
  let sent = 0;
  let current = completedEvent(payers[0]!);
  return [
    {
      name: "POST Stripe webhook (4 deliveries per event)",
      target: 0.4,
      load: () => ({
        url: base,
        requests: postEach(() => {
          if (sent++ % DELIVERIES === 0) current = completedEvent(payers[((sent / DELIVERIES) % PAYERS) | 0]!);
          return { path: "/api/webhooks/stripe", headers: { "stripe-signature": current.signature }, body: current.payload };
        }),
      }),
    },
  ];
}
