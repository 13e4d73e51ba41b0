import { z } from "zod";
import { minorUnits } from "./credit-and-clawback";
import { playApi } from "./google-play";
import { googlePlayMode } from "./modes";
import { creditedPurchases } from "./queries";
import type { ProviderReconciliation, Settled } from "./provider";

// The reconciliation's Google Play side, through the Play Developer API as the service account: the voided purchases
// of the window (refunds, chargebacks, revocations) and, for each order credited here, the order as Play has it now
// (orders.batchGet). Play lists no orders of its own accord, so a purchase neither the app nor a notification
// reported is not found here (it has no `not_credited`).

/** orders.batchGet takes up to 1,000 ids; 100 keeps the query string short. */
const BATCH = 100;

const money = z.looseObject({ currencyCode: z.string(), units: z.union([z.string(), z.number()]).optional(), nanos: z.number().optional() });
const orders = z.looseObject({
  orders: z.array(z.looseObject({ orderId: z.string(), state: z.string().optional(), createTime: z.string().optional(), total: money.optional() })).default([]),
});
const voidedPage = z.looseObject({
  voidedPurchases: z.array(z.looseObject({ orderId: z.string().optional(), purchaseToken: z.string().optional() })).default([]),
  tokenPagination: z.looseObject({ nextPageToken: z.string().optional() }).optional(),
});

async function play<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  const res = await playApi("GET", path);
  if (!res.ok) throw new Error(`Google Play answered ${res.status} for ${path.split("?")[0]}`);
  return schema.parse(await res.json());
}

const minor = (m: z.infer<typeof money>) => minorUnits(Math.round(Number(m.units ?? 0) * 1000 + (m.nanos ?? 0) / 1e6), m.currencyCode);

export const googlePlayReconciliation: ProviderReconciliation = {
  provider: "google_play",
  configured: () => googlePlayMode() !== "unconfigured",
  async gather(db, since) {
    const voided = new Set<string>();
    let token: string | undefined;
    do {
      const q = new URLSearchParams({ startTime: String(since.getTime()), maxResults: "1000" });
      if (token) q.set("token", token);
      const page = await play(`/purchases/voidedpurchases?${q}`, voidedPage);
      for (const v of page.voidedPurchases) if (v.orderId) voided.add(v.orderId);
      token = page.tokenPagination?.nextPageToken;
    } while (token);
    const ours = await creditedPurchases(db, "google_play", since, [...voided]);
    const theirs: Settled[] = [];
    for (let i = 0; i < ours.length; i += BATCH) {
      const q = new URLSearchParams(ours.slice(i, i + BATCH).map((o) => ["orderIds", o.txnId]));
      for (const o of (await play(`/orders:batchGet?${q}`, orders)).orders) {
        if (o.state === "PENDING" || o.state === "CANCELED") continue; // never paid
        theirs.push({
          txnId: o.orderId,
          amount: o.total ? minor(o.total) : null,
          refunded: o.state === "REFUNDED" || voided.has(o.orderId),
          disputed: false,
          created: Date.parse(o.createTime ?? "") || 0,
        });
      }
    }
    return { theirs, ours };
  },
};
