import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import type { DbTx } from "../../db/client";
import { MAX_ALERTS } from "./schemas";

// What the staff console (/admin/market) reads of price alerts: how many there are, the cards most watched (each of
// their listings at a low price fires that many alerts at once), and the fans at the cap.

export interface AlertsLoad {
  alerts: number;
  fans: number;
  atCap: number;
  cards: { cardId: string; name: string; alerts: number; highestPrice: number }[];
}

export async function alertsLoad(db: RawDb | DbTx, top = 10): Promise<AlertsLoad> {
  const [totals] = await raw(db).$queryRaw<{ alerts: bigint; fans: bigint; atCap: bigint }[]>`
    SELECT count(*) AS alerts, count(DISTINCT user_id) AS fans,
           (SELECT count(*) FROM (SELECT 1 FROM price_alerts GROUP BY user_id HAVING count(*) >= ${MAX_ALERTS}) x) AS "atCap"
    FROM price_alerts`;
  const cards = await raw(db).$queryRaw<Int8<AlertsLoad["cards"][number], "alerts" | "highestPrice">[]>`
    SELECT a.card_id AS "cardId", k.name, count(*) AS alerts, max(a.max_price) AS "highestPrice"
    FROM price_alerts a JOIN collectible_cards k ON k.id = a.card_id
    GROUP BY a.card_id, k.name ORDER BY count(*) DESC, a.card_id LIMIT ${top}`;
  return {
    alerts: Number(totals!.alerts),
    fans: Number(totals!.fans),
    atCap: Number(totals!.atCap),
    cards: cards.map((c) => int8(c, ["alerts", "highestPrice"])),
  };
}
