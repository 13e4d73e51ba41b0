import { randomUUID } from "node:crypto";
import { api, db, fan, testCard } from "../helpers";

// What the marketplace tests share (marketplace.test.ts, marketplace-bids-offers.test.ts): idempotency keys, the fee,
// a fan's wallet balance, who owns a collectible, the test card and listing it.

export const key = () => randomUUID();
export const FEE = (price: number) => Math.floor((price * 500) / 10_000);

export type Fan = Awaited<ReturnType<typeof fan>>;

export const balance = async (f: Fan) => (await api("GET", "/api/v1/wallet", { headers: f.auth })).body.data.wallets[0].balance as number;
export const ownerOf = async (collectibleId: string) => (await db().collectible.findUniqueOrThrow({ where: { id: collectibleId } })).ownerId;

// Each file's own card (a module is loaded once per test file), so its listings never meet another file's.
export const card = testCard("Market test card", "epic", 10_000);
export const give = (f: Fan) => card.give(f.id);

export const list = (f: Fan, json: unknown) => api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json });
export const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
