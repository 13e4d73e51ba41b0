import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { alertsLoad } from "@/lib/core/market-data/console-queries";
import { tradesForConsole } from "@/lib/features/marketplace/trade-queries";
import { TRADE_STATUSES } from "@/lib/features/marketplace/trade-schemas";
import { requireStaff } from "../_lib/gate";
import { FilterForm, first, Notice, Stat, styles, TableHead, when, type SearchParams, ScrollTable } from "../_lib/ui";
import { formatCoins } from "../economy/shared";
import { voidTradeAction } from "./actions";
import { MARKET_DONE, MARKET_ERRORS, tradeStatusFilter } from "./shared";

// The market beyond listings (lib/core/market-data, lib/features/marketplace trades): the price alerts' load, and trades and gifts with
// staff voiding an open one (a dispute), its held coins back to the proposer.

const PAGE = 50;

export default async function MarketPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/market", "economy");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const status = tradeStatusFilter.parse(first(sp.status));
  const beforeParam = first(sp.before);
  const before = beforeParam && UUID_PATTERN.test(beforeParam) ? beforeParam : undefined;
  const [load, trades] = await Promise.all([alertsLoad(db), tradesForConsole(db, status, before, PAGE + 1)]);
  const shown = trades.slice(0, PAGE);
  const more = trades.length > PAGE ? shown.at(-1)!.id : undefined;
  const who = (handle: string | null, id: string) => (handle ? `@${handle}` : id.slice(0, 8));

  return (
    <>
      <h1>Market</h1>
      {done && MARKET_DONE[done] ? <Notice>{MARKET_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${MARKET_ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      <section aria-labelledby="alerts">
        <h2 id="alerts">Price alerts</h2>
        <p style={styles.muted}>
          A fixed-price listing at or below an alert&apos;s price notifies its fan once (at most 20 alerts an hour per fan). A card with many alerts fires that
          many notifications when a copy is listed cheaply.
        </p>
        <dl aria-label="Price alerts" style={{ display: "flex", gap: 16, flexWrap: "wrap", margin: 0 }}>
          <Stat label="Alerts" value={load.alerts} testId="alerts-total" />
          <Stat label="Fans with alerts" value={load.fans} testId="alerts-fans" />
          <Stat label="Fans at the cap (50)" value={load.atCap} testId="alerts-at-cap" />
        </dl>
        {load.cards.length === 0 ? (
          <p>No alert yet.</p>
        ) : (
          <ScrollTable label="Cards most watched">
            <TableHead columns={["Card", "Alerts", "Highest alert price"]} />
            <tbody>
              {load.cards.map((c) => (
                <tr key={c.cardId} data-card={c.cardId}>
                  <th scope="row" style={styles.rowHead}>
                    {c.name} <code style={{ fontSize: 12 }}>{c.cardId}</code>
                  </th>
                  <td style={styles.td} data-testid="alert-count">
                    {c.alerts}
                  </td>
                  <td style={styles.td}>{formatCoins(c.highestPrice)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
      </section>

      <section aria-labelledby="trades">
        <h2 id="trades">Trades and gifts</h2>
        <FilterForm name="status" label="Status" options={TRADE_STATUSES} value={status} />
        {shown.length === 0 ? (
          <p>No trade{status ? ` is ${status}` : " yet"}.</p>
        ) : (
          <ScrollTable label="Trades">
            <TableHead columns={["Proposed", "From", "To", "Coins offered", "Coins asked", "Status", "Void (a dispute)"]} />
            <tbody>
              {shown.map((t) => (
                <tr key={t.id} data-trade={t.id}>
                  <td style={styles.td}>{when(t.createdAt)}</td>
                  <td style={styles.td}>{who(t.proposerHandle, t.proposerId)}</td>
                  <td style={styles.td}>{who(t.recipientHandle, t.recipientId)}</td>
                  <td style={styles.td}>{formatCoins(t.offerCoins)}</td>
                  <td style={styles.td}>{t.gift ? "gift" : formatCoins(t.askCoins)}</td>
                  <td style={styles.td} data-testid="status">
                    {t.status}
                    {t.voidReason ? ` (${t.voidReason})` : ""}
                  </td>
                  <td style={styles.td}>
                    {t.status === "open" ? (
                      <form action={voidTradeAction} style={{ display: "flex", gap: 6 }} aria-label={`Void trade ${t.id}`}>
                        <input type="hidden" name="tradeId" value={t.id} />
                        <label>
                          <span style={{ position: "absolute", left: -10000 }}>Reason</span>
                          <input name="reason" required minLength={3} maxLength={300} placeholder="Reason" style={styles.input} />
                        </label>
                        <button type="submit" style={styles.secondary}>
                          Void
                        </button>
                      </form>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        {more ? <a href={`/admin/market?${new URLSearchParams({ ...(status ? { status } : {}), before: more })}`}>Older trades</a> : null}
      </section>
    </>
  );
}
