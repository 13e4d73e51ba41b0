// The soft close under load: AUCTION_BIDDERS funded bidders bid on one auction in its last minute, each with a
// proxy bid at the current minimum up to a maximum a little above it (retrying on BID_TOO_LOW with the minimum it
// answers, up to TRIES times). Then the auction is
// settled by the marketplace cron, and the database must show one winner, the end moved to the last bid + 2 minutes
// (AUCTION_SOFT_CLOSE_MINUTES' default), every loser's hold released and the ledger invariant true for everyone in it.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { CONNECTIONS, DB_URL, ensureUsers, fundUsers, pct } from "./common";

export const AUCTION_CASE = "500 bidders in the last minute of one auction";
export const BENCH_CRON_SECRET = randomBytes(24).toString("hex");
const AUCTION_BIDDERS = 500;
const BIDDER_SUB = (i: number) => `user_bench_bidder_${i}`;
const SELLER_SUB = "user_bench_auction_seller";
const START = 1_000;
const INCREMENT = 100;
const SOFT_CLOSE_MS = 2 * 60_000;
const TRIES = 10;
// Each bidder's maximum: their bid plus up to this many increments (a spread like a real room's: most lose by a little).
const MAX_SPREAD = 20;

export async function measureAuctionClose(base: string, token: (sub: string) => string) {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const subs = Array.from({ length: AUCTION_BIDDERS }, (_, i) => BIDDER_SUB(i));
  await ensureUsers(client, [...subs, SELLER_SUB]);
  await fundUsers(client, subs, 1_000_000);
  const { rows: listed } = await client.query<{ id: string; endsAt: Date }>(
    `WITH seller AS (SELECT id FROM users WHERE external_id = $1),
          item AS (
            INSERT INTO collectibles (id, card_id, serial, owner_id)
            SELECT gen_random_uuid(), 'cc_bench_tm_hch', 3000000 + (extract(epoch FROM clock_timestamp())::bigint % 1000000), seller.id FROM seller
            RETURNING id, card_id, owner_id
          )
     INSERT INTO listings (id, seller_id, collectible_id, active_item_id, kind, price, starting_price, min_increment, ends_at, card_id, team_id, rarity)
     SELECT gen_random_uuid(), item.owner_id, item.id, item.id, 'auction', $2, $2, $3, now() + interval '1 minute', k.id, k.team_id, k.rarity
     FROM item JOIN collectible_cards k ON k.id = item.card_id
     RETURNING id::text, ends_at AS "endsAt"`,
    [SELLER_SUB, START, INCREMENT],
  );
  const listing = listed[0]!;

  const statuses = new Map<number, number>();
  const refusals = new Map<string, number>();
  let leads = 0;
  const queue = [...subs].sort(() => Math.random() - 0.5);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS * 4 }, async () => {
      for (let sub = queue.pop(); sub; sub = queue.pop()) {
        let amount = START;
        for (let t = 0; t < TRIES; t++) {
          const res = await fetch(`${base}/api/v1/marketplace/listings/${listing.id}/bids`, {
            method: "POST",
            headers: { authorization: `Bearer ${token(sub)}`, "idempotency-key": randomUUID(), "content-type": "application/json" },
            body: JSON.stringify({ amount, maxAmount: amount + INCREMENT * Math.floor(Math.random() * (MAX_SPREAD + 1)) }),
          });
          const body = (await res.json()) as { data?: { leading: boolean }; error?: { code: string; details?: { message: string }[] } };
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201 && body.data?.leading) leads++;
          if (body.error) refusals.set(body.error.code, (refusals.get(body.error.code) ?? 0) + 1);
          if (res.status !== 409 || body.error?.code !== "BID_TOO_LOW") break;
          amount = Number(/\d+/.exec(body.error.details?.[0]?.message ?? "")?.[0] ?? amount + INCREMENT);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const { rows: extended } = await client.query<{ endsAt: Date; lastBid: Date; topBidderId: string }>(
    `SELECT l.ends_at AS "endsAt", (SELECT max(created_at) FROM bids WHERE listing_id = l.id) AS "lastBid", l.top_bidder_id::text AS "topBidderId"
     FROM listings l WHERE l.id = $1::uuid`,
    [listing.id],
  );
  // The time is up: settle it.
  await client.query(`UPDATE listings SET ends_at = now() - interval '1 second' WHERE id = $1::uuid`, [listing.id]);
  const cron = await fetch(`${base}/api/cron/marketplace`, { headers: { authorization: `Bearer ${BENCH_CRON_SECRET}` } });
  await cron.arrayBuffer();
  const { rows: check } = await client.query<{
    status: string;
    buyer: string | null;
    sales: number;
    unreleased: number;
    unreleasedOther: number;
    losersHolding: number;
    winnerPaid: string;
    price: string;
    mismatches: number;
  }>(
    `WITH l AS (SELECT * FROM listings WHERE id = $1::uuid),
          b AS (SELECT * FROM bids WHERE listing_id = $1::uuid),
          moves AS (SELECT t.user_id, sum(t.amount) AS net FROM wallet_transactions t WHERE t.reference_type = 'bid' AND t.reference_id IN (SELECT id::text FROM b)
                    GROUP BY t.user_id),
          people AS (SELECT DISTINCT bidder_id AS id FROM b UNION SELECT seller_id FROM l)
     SELECT l.status::text AS status, l.buyer_id::text AS buyer,
            (SELECT count(*)::int FROM collectible_transfers WHERE reference_id = $2 AND reason = 'sale') AS sales,
            (SELECT count(*)::int FROM b WHERE released_at IS NULL) AS unreleased,
            (SELECT count(*)::int FROM b WHERE released_at IS NULL AND bidder_id IS DISTINCT FROM l.buyer_id) AS "unreleasedOther",
            (SELECT count(*)::int FROM moves WHERE user_id IS DISTINCT FROM l.buyer_id AND net <> 0) AS "losersHolding",
            (SELECT coalesce(-net, 0)::text FROM moves WHERE user_id = l.buyer_id) AS "winnerPaid", l.sale_price::text AS price,
            (SELECT count(*)::int FROM wallets w WHERE w.user_id IN (SELECT id FROM people)
               AND w.balance <> (SELECT coalesce(sum(amount), 0) FROM wallet_transactions t WHERE t.user_id = w.user_id AND t.currency = w.currency)) AS mismatches
     FROM l`,
    [listing.id, listing.id],
  );
  await client.end();
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const e = extended[0]!;
  return {
    listingId: listing.id,
    requests: total,
    accepted: statuses.get(201) ?? 0,
    refused: statuses.get(409) ?? 0,
    refusals: [...refusals].map(([code, n]) => `${n} ${code}`).join(", "),
    other: total - (statuses.get(201) ?? 0) - (statuses.get(409) ?? 0),
    leads,
    seconds,
    endsAtBefore: listing.endsAt,
    endsAt: e.endsAt,
    lastBid: e.lastBid,
    topBidderId: e.topBidderId,
    cronStatus: cron.status,
    ...check[0]!,
  };
}

export function reportAuctionClose(a: Awaited<ReturnType<typeof measureAuctionClose>>, healthRps: number) {
  const rps = a.requests / a.seconds;
  const extendedOk = a.endsAt.getTime() === a.lastBid.getTime() + SOFT_CLOSE_MS && a.endsAt > a.endsAtBefore;
  const winnerOk = a.status === "sold" && a.buyer === a.topBidderId && a.sales === 1 && a.winnerPaid === a.price;
  const holdsOk = a.unreleasedOther === 0 && a.unreleased <= 1 && a.losersHolding === 0;
  const ok =
    a.cronStatus === 200 &&
    a.other === 0 &&
    extendedOk &&
    winnerOk &&
    holdsOk &&
    a.mismatches === 0 &&
    a.refusals.split(",").every((r) => r === "" || r.includes("BID_TOO_LOW"));
  console.log(
    `  ${AUCTION_CASE}: ${a.requests} bids (${a.accepted} accepted, ${a.leads} took the lead, ${a.refused} refused: ${a.refusals || "none"}; ${a.other} other) in ${a.seconds.toFixed(2)} s: ` +
      `${rps.toFixed(0)} bids/s, ${pct(rps / healthRps)} of /api/health throughput; ` +
      `${winnerOk ? `one winner at ${a.price}` : `WINNER WRONG (${a.status}, ${a.sales} sales, paid ${a.winnerPaid} of ${a.price})`}, ` +
      `${extendedOk ? "the end at the last bid + 2 min" : `END WRONG (${a.endsAt.toISOString()} after a last bid at ${a.lastBid.toISOString()})`}, ` +
      `${holdsOk ? "every loser's hold released" : `HOLDS LEFT (${a.unreleasedOther} bids, ${a.losersHolding} losers)`}, ` +
      `${a.mismatches === 0 ? "ledger invariant true" : `${a.mismatches} WALLETS OFF THEIR LEDGER`} ${ok ? "(ok)" : "(BROKEN)"}`,
  );
  if (!ok) process.exitCode = 1;
}
