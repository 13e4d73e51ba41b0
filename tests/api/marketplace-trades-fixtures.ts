import { randomUUID } from "node:crypto";
import { api, db, fan, testCard } from "../helpers";

// What the trades tests share (marketplace-trades.test.ts, marketplace-trade-rules.test.ts): the test card, proposing
// and acting on a trade, its row and ledger, a fan's balance and who owns a collectible.

export type Fan = Awaited<ReturnType<typeof fan>>;

// Each file's own card (a module is loaded once per test file), so its copies never meet another file's.
export const card = testCard("Trades test card", "epic", 10_000);

export const propose = (f: Fan, json: Record<string, unknown>) =>
  api("POST", "/api/v1/marketplace/trades", { headers: { ...f.auth, "idempotency-key": randomUUID() }, json });
export const act = (f: Fan, id: string, action: "accept" | "decline" | "cancel") =>
  api("POST", `/api/v1/marketplace/trades/${id}/${action}`, { headers: f.auth });
export const tradeRow = async (id: string) => db().trade.findUniqueOrThrow({ where: { id } });
export const balance = async (f: Fan) => (await api("GET", "/api/v1/wallet", { headers: f.auth })).body.data.wallets[0].balance as number;
export const ownerOf = async (id: string) => (await db().collectible.findUniqueOrThrow({ where: { id } })).ownerId;
export const tradeLedgerNet = async (tradeId: string) =>
  Number(
    (
      await db().$queryRaw<
        { net: bigint }[]
      >`SELECT coalesce(sum(amount), 0)::int8 AS net FROM wallet_transactions WHERE reference_type = 'trade' AND reference_id = ${tradeId}`
    )[0]!.net,
  );
