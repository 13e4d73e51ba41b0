// The marketplace: MARKET_LISTINGS listings to browse (made once), and buying under contention (measureContention:
// few listings, many buyers at once, and the database's count of whether any listing sold twice).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { CONNECTIONS, DB_URL, ensureUsers, fundUsers, PAGE, type Case } from "./common";

// The marketplace: listings to browse (once per database), and the contention run: few listings, many buyers.
const MARKET_LISTINGS = 20_000;
const MARKET_SELLERS = 200;
const MARKET_SELLER_SUB = (i: number) => `user_bench_seller_${i}`;
const CONTENDED_LISTINGS = 50;
const CONTENDING_BUYERS = 500;
const BUYER_SUB = (i: number) => `user_bench_buyer_${i}`;
// One card with DEEP_LISTINGS active listings and DEEP_SALES sales in the last day (its market data).
const DEEP_CARD = "cc_bench_deep";
const DEEP_LISTINGS = 100_000;
const DEEP_SALES = 1_000;

/** Bench cards (editions large enough) and MARKET_LISTINGS active fixed-price listings by MARKET_SELLERS sellers. */
export async function prepareMarket(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows: counted } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM listings WHERE card_id LIKE 'cc_bench_%' AND status = 'active'`);
  if (Number(counted[0]!.n) < MARKET_LISTINGS) {
    console.log(`bench: writing ${MARKET_LISTINGS.toLocaleString()} marketplace listings (once per database)…`);
    const subs = Array.from({ length: MARKET_SELLERS }, (_, i) => MARKET_SELLER_SUB(i));
    await client.query(
      `INSERT INTO users (id, external_id, handle, handle_key, updated_at)
       SELECT gen_random_uuid(), s, 'seller' || i, 'seller' || i, now() FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i)
       ON CONFLICT (external_id) DO NOTHING`,
      [subs],
    );
    await client.query(
      `INSERT INTO collectible_cards (id, kind, team_id, name, rarity, edition_size)
       SELECT 'cc_bench_' || t.id, 'team', t.id, t.name || ' bench card', (ARRAY['common','rare','epic','legendary']::"Rarity"[])[1 + i % 4], 1000000
       FROM teams t, LATERAL (SELECT row_number() OVER () AS i) r(i) WHERE t.archived_at IS NULL
       ON CONFLICT (id) DO NOTHING`,
    );
    await client.query(
      `WITH sellers AS (SELECT array_agg(id ORDER BY external_id) AS ids FROM users WHERE external_id = ANY($1::text[])),
            cards AS (SELECT array_agg(id ORDER BY id) AS ids FROM collectible_cards WHERE id LIKE 'cc_bench_%'),
            items AS (
              INSERT INTO collectibles (id, card_id, serial, owner_id)
              SELECT gen_random_uuid(), cards.ids[1 + i % array_length(cards.ids, 1)], 1000 + i, sellers.ids[1 + i % $2]
              FROM generate_series(1, $3::int) AS i, sellers, cards
              ON CONFLICT (card_id, serial) DO NOTHING
              RETURNING id, card_id, owner_id, serial
            )
       INSERT INTO listings (id, seller_id, collectible_id, active_item_id, kind, price, card_id, team_id, rarity, created_at)
       SELECT gen_random_uuid(), items.owner_id, items.id, items.id, 'fixed', 100 + (items.serial * 37) % 50000, k.id, k.team_id, k.rarity,
              now() - make_interval(secs => items.serial)
       FROM items JOIN collectible_cards k ON k.id = items.card_id`,
      [subs, MARKET_SELLERS, MARKET_LISTINGS],
    );
    await client.query("ANALYZE collectibles; ANALYZE listings; ANALYZE collectible_cards");
  }
  await prepareDeepCard(client);
  await client.end();
}

/** DEEP_CARD: DEEP_LISTINGS copies listed at a fixed price by the bench sellers, and DEEP_SALES sales of it today. */
async function prepareDeepCard(client: pg.Client) {
  const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM listings WHERE card_id = $1 AND status = 'active'`, [DEEP_CARD]);
  if (Number(rows[0]!.n) >= DEEP_LISTINGS) return;
  console.log(`bench: listing ${DEEP_LISTINGS.toLocaleString()} copies of one card (once per database)…`);
  await client.query(
    `INSERT INTO collectible_cards (id, kind, team_id, name, rarity, edition_size, minted_count)
     SELECT $1, 'team', id, 'Deep market bench card', 'common', 1000000, $2 FROM teams WHERE archived_at IS NULL ORDER BY id LIMIT 1
     ON CONFLICT (id) DO NOTHING`,
    [DEEP_CARD, DEEP_LISTINGS],
  );
  await client.query(
    `WITH sellers AS (SELECT array_agg(id ORDER BY external_id) AS ids FROM users WHERE external_id LIKE 'user_bench_seller_%'),
          items AS (
            INSERT INTO collectibles (id, card_id, serial, owner_id)
            SELECT gen_random_uuid(), $1, i, sellers.ids[1 + i % array_length(sellers.ids, 1)] FROM generate_series(1, $2::int) AS i, sellers
            ON CONFLICT (card_id, serial) DO NOTHING
            RETURNING id, owner_id, serial
          )
     INSERT INTO listings (id, seller_id, collectible_id, active_item_id, kind, price, card_id, team_id, rarity, created_at)
     SELECT gen_random_uuid(), items.owner_id, items.id, items.id, 'fixed', 500 + (items.serial * 37) % 50000, k.id, k.team_id, k.rarity, now()
     FROM items JOIN collectible_cards k ON k.id = $1`,
    [DEEP_CARD, DEEP_LISTINGS],
  );
  await client.query(
    `INSERT INTO market_sales (id, card_id, collectible_id, serial, seller_id, buyer_id, price, fee, via, reference_id, created_at)
     SELECT gen_random_uuid(), c.card_id, c.id, c.serial, c.owner_id, c.owner_id, 1000, 50, 'sale', gen_random_uuid(), now() - make_interval(secs => c.serial * 60)
     FROM collectibles c WHERE c.card_id = $1 AND c.serial <= $2`,
    [DEEP_CARD, DEEP_SALES],
  );
  await client.query("ANALYZE collectibles; ANALYZE listings; ANALYZE market_sales");
}

/**
 * Buying under contention: CONTENDED_LISTINGS fresh listings, CONTENDING_BUYERS funded buyers, ten tries per listing
 * from ten different buyers at once (every request its own Idempotency-Key). Answers the sales per second and
 * whether any listing sold twice (the database's count of sales, transfers and money against the listings).
 */
export async function measureContention(base: string, token: (sub: string) => string) {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const subs = Array.from({ length: CONTENDING_BUYERS }, (_, i) => BUYER_SUB(i));
  await ensureUsers(client, subs);
  await fundUsers(client, subs, 1_000_000);
  const { rows: seller } = await client.query<{ id: string }>(`SELECT id::text FROM users WHERE external_id = $1`, [MARKET_SELLER_SUB(0)]);
  const { rows: listed } = await client.query<{ id: string }>(
    `WITH items AS (
       INSERT INTO collectibles (id, card_id, serial, owner_id)
       SELECT gen_random_uuid(), 'cc_bench_tm_hch', 2000000 + (extract(epoch FROM clock_timestamp())::bigint % 100000) * 100 + i, $1::uuid
       FROM generate_series(1, $2::int) AS i
       RETURNING id, card_id
     )
     INSERT INTO listings (id, seller_id, collectible_id, active_item_id, kind, price, card_id, team_id, rarity)
     SELECT gen_random_uuid(), $1::uuid, items.id, items.id, 'fixed', 5000, k.id, k.team_id, k.rarity
     FROM items JOIN collectible_cards k ON k.id = items.card_id
     RETURNING id::text`,
    [seller[0]!.id, CONTENDED_LISTINGS],
  );
  const tries = listed.flatMap((l, i) => Array.from({ length: 10 }, (_, j) => ({ listing: l.id, sub: subs[(i * 10 + j) % subs.length]! })));
  tries.sort(() => Math.random() - 0.5);
  const statuses = new Map<number, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS * 4 }, async () => {
      while (next < tries.length) {
        const t = tries[next++]!;
        const res = await fetch(`${base}/api/v1/marketplace/listings/${t.listing}/buy`, {
          method: "POST",
          headers: { authorization: `Bearer ${token(t.sub)}`, "idempotency-key": randomUUID() },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const ids = listed.map((l) => l.id);
  const { rows: check } = await client.query<{ sold: number; transfers: number; debits: number; worst: number }>(
    `SELECT (SELECT count(*)::int FROM listings WHERE id = ANY($1::uuid[]) AND status = 'sold') AS sold,
            (SELECT count(*)::int FROM collectible_transfers WHERE reference_id = ANY($2::text[]) AND reason = 'sale') AS transfers,
            (SELECT count(*)::int FROM wallet_transactions WHERE reference_id = ANY($2::text[]) AND reason = 'purchase') AS debits,
            (SELECT coalesce(max(n), 0)::int FROM (SELECT count(*) AS n FROM collectible_transfers WHERE reference_id = ANY($2::text[]) AND reason = 'sale' GROUP BY reference_id) x) AS worst`,
    [ids, ids],
  );
  await client.end();
  const c = check[0]!;
  return {
    tries: tries.length,
    seconds,
    sales: statuses.get(200) ?? 0,
    refused: statuses.get(409) ?? 0,
    other: tries.length - (statuses.get(200) ?? 0) - (statuses.get(409) ?? 0),
    ...c,
  };
}

/** The marketplace cases, in the runner's order. */
export function marketCases(base: string, privateKey: string): Case[] {
  // Signed in, so the card's market is read fresh each time (anonymous callers share one answer a second).
  const auth = { authorization: `Bearer ${signSessionToken(privateKey, MARKET_SELLER_SUB(0), { ttlSeconds: 3600 })}` };
  return [
    { name: "GET marketplace listings", target: 0.5, load: () => ({ url: `${base}/api/v1/marketplace/listings?limit=${PAGE}` }) },
    { name: "GET listings (team, by price)", load: () => ({ url: `${base}/api/v1/marketplace/listings?teamId=tm_hch&sort=price&limit=${PAGE}` }) },
    { name: "GET card market (100k listed)", target: 0.5, load: () => ({ url: `${base}/api/v1/collectibles/cards/${DEEP_CARD}`, headers: auth }) },
  ];
}

export function reportContention(contention: Awaited<ReturnType<typeof measureContention>>) {
  const c = contention;
  const once =
    c.sold === CONTENDED_LISTINGS && c.transfers === CONTENDED_LISTINGS && c.debits === CONTENDED_LISTINGS && c.worst === 1 && c.sales === CONTENDED_LISTINGS;
  console.log(
    `  buying under contention: ${CONTENDED_LISTINGS} listings, ${c.tries} tries by ${CONTENDING_BUYERS} buyers at once: ${c.sales} sales, ${c.refused} refused (409), ${c.other} other, in ${c.seconds.toFixed(2)} s (${(c.sales / c.seconds).toFixed(0)} sales/s, ${(c.tries / c.seconds).toFixed(0)} tries/s); ${once ? "no listing sold twice (ok)" : `SOLD TWICE OR MISSED: ${c.sold} sold, ${c.transfers} transfers, ${c.debits} debits, at most ${c.worst} per listing`}`,
  );
  if (!once || c.other > 0) process.exitCode = 1;
}
