import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { allProducts, frozenWallets, latestPurchases } from "@/lib/features/payments/console-queries";
import { latestReconciliations } from "@/lib/features/payments/reconciliation-queries";
import { PURCHASE_STATES } from "@/lib/features/payments/schemas";
import { requireStaff } from "../_lib/gate";
import { Field, FilterForm, first, InlineCheck, Notice, styles, TableHead, when, type SearchParams, ScrollTable } from "../_lib/ui";
import { formatCoins } from "../economy/shared";
import { saveProductAction } from "./actions";
import { PAYMENTS_DONE, PAYMENTS_ERRORS, stateFilter } from "./shared";

// Money in (lib/features/payments): the coin bundles on sale (created and changed here), the latest purchases of every
// provider, and the wallets frozen by a debt from a refunded or disputed purchase.

const PAGE = 50;

/** A paid amount in its currency's minor units, as money (4.99 USD; 500 JPY). */
function money(minor: number, currency: string) {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() });
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

export default async function PaymentsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/payments", "economy");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const state = stateFilter.parse(first(sp.state));
  const beforeParam = first(sp.before);
  const before = beforeParam && UUID_PATTERN.test(beforeParam) ? beforeParam : undefined;
  const [products, purchases, frozen, reconciliations] = await Promise.all([
    allProducts(db),
    latestPurchases(db, state, before, PAGE + 1),
    frozenWallets(db, PAGE),
    latestReconciliations(db),
  ]);
  const shown = purchases.slice(0, PAGE);
  const more = purchases.length > PAGE ? shown.at(-1)!.id : undefined;
  const price = (p: Record<string, number>) =>
    Object.entries(p)
      .sort()
      .map(([c, a]) => `${c}=${a}`)
      .join(", ");

  return (
    <>
      <h1>Payments</h1>
      {done && PAYMENTS_DONE[done] ? <Notice>{PAYMENTS_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${PAYMENTS_ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      <section aria-labelledby="bundles">
        <h2 id="bundles">Coin bundles</h2>
        <p style={styles.muted}>
          What GET /api/v1/wallet/products lists (active ones, in this order) and what each provider&apos;s purchase credits. Coins and prices are minor units
          (100 = 1 coin; 499 = 4.99). A change applies to later purchases only.
        </p>
        <ScrollTable label="Coin bundles">
          <TableHead columns={["Bundle", "Coins", "Prices", "App Store", "Google Play", "Order", "On sale"]} />
          <tbody>
            {products.map((p) => (
              <tr key={p.id} data-product={p.id}>
                <th scope="row" style={styles.rowHead}>
                  {p.name}
                  <br />
                  <code style={{ fontSize: 12 }}>{p.id}</code>
                </th>
                <td style={styles.td}>{formatCoins(p.coins)}</td>
                <td style={styles.td}>{price(p.prices)}</td>
                <td style={styles.td}>{p.appStoreProductId ?? "—"}</td>
                <td style={styles.td}>{p.googlePlayProductId ?? "—"}</td>
                <td style={styles.td}>{p.sortOrder}</td>
                <td style={styles.td} data-testid="active">
                  {p.active ? "yes" : "no"}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
        <h3>Create or change a bundle</h3>
        <form action={saveProductAction} style={styles.form} aria-label="Save a bundle">
          <Field label="Id (an existing id changes that bundle)" name="id" required pattern="[a-z0-9_]{1,64}" />
          <Field label="Name" name="name" required maxLength={100} />
          <Field label="Coins (minor units)" name="coins" required inputMode="numeric" />
          <Field label="Prices (usd=499, eur=499)" name="prices" required width={200} />
          <Field label="App Store product id" name="appStoreProductId" />
          <Field label="Google Play product id" name="googlePlayProductId" />
          <Field label="Order" name="sortOrder" defaultValue="0" inputMode="numeric" width={70} />
          <InlineCheck label="On sale" name="active" defaultChecked />
          <button type="submit" style={styles.button}>
            Save bundle
          </button>
        </form>
      </section>

      <section aria-labelledby="purchases">
        <h2 id="purchases">Purchases</h2>
        <FilterForm name="state" label="State" options={PURCHASE_STATES} value={state} />
        {shown.length === 0 ? (
          <p>No purchase{state ? ` is ${state}` : " yet"}.</p>
        ) : (
          <ScrollTable label="Purchases">
            <TableHead columns={["When", "Fan", "Provider", "Bundle", "Coins", "Paid", "State", "Clawed back"]} />
            <tbody>
              {shown.map((p) => (
                <tr key={p.id} data-purchase={p.id} data-state={p.state} data-flag={p.flag ?? undefined}>
                  <td style={styles.td}>{when(p.createdAt)}</td>
                  <td style={styles.td}>{p.handle ? `@${p.handle}` : <code style={{ fontSize: 12 }}>{p.userId}</code>}</td>
                  <td style={styles.td}>
                    {p.provider}
                    {p.providerTxnId ? (
                      <>
                        <br />
                        <code style={{ fontSize: 12 }}>{p.providerTxnId}</code>
                      </>
                    ) : null}
                  </td>
                  <td style={styles.td}>{p.productId}</td>
                  <td style={styles.td}>{formatCoins(p.coins)}</td>
                  <td style={styles.td}>{money(p.amount, p.currency)}</td>
                  <td style={styles.td}>
                    {p.state}
                    {p.flag ? (
                      <>
                        <br />
                        <strong title="Credited while the fan could not buy coins: review it (a refund through the store)">flagged: {p.flag}</strong>
                      </>
                    ) : null}
                  </td>
                  <td style={styles.td}>{p.clawedCoins ? formatCoins(p.clawedCoins) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        {more ? (
          <p>
            <a href={`/admin/payments?${new URLSearchParams({ ...(state ? { state } : {}), before: more })}`}>Older purchases</a>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="reconciliation">
        <h2 id="reconciliation">Reconciliation</h2>
        <p style={styles.muted}>
          The daily comparison of what each provider settled with the purchases here (<code>/api/cron/payments-reconciliation</code>): its latest run.
        </p>
        {reconciliations.length === 0 ? (
          <p>No reconciliation has run yet.</p>
        ) : (
          reconciliations.map((r) => (
            <div key={r.id} data-reconciliation={r.provider} data-status={r.status}>
              <p>
                <strong>{r.provider}</strong>:{" "}
                {r.status === "ok" ? "no difference" : r.status === "failed" ? `failed (${r.error ?? "unknown"})` : `${r.discrepancies.length} difference(s)`}{" "}
                <span style={styles.muted}>
                  ({r.checked} compared since {when(r.windowFrom)}; run {when(r.startedAt)})
                </span>
              </p>
              {r.discrepancies.length ? (
                <ScrollTable label={`Differences with ${r.provider}`}>
                  <TableHead columns={["Kind", "Provider transaction", "Purchase", "Details"]} />
                  <tbody>
                    {r.discrepancies.map((d) => (
                      <tr key={`${d.kind}:${d.providerTxnId}`} data-kind={d.kind} data-txn={d.providerTxnId}>
                        <td style={styles.td}>{d.kind}</td>
                        <td style={styles.td}>
                          <code>{d.providerTxnId}</code>
                        </td>
                        <td style={styles.td}>{d.purchaseId ? <code style={{ fontSize: 12 }}>{d.purchaseId}</code> : "—"}</td>
                        <td style={styles.td}>
                          <code style={{ fontSize: 12 }}>{JSON.stringify(d.details)}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </ScrollTable>
              ) : null}
            </div>
          ))
        )}
      </section>

      <section aria-labelledby="frozen">
        <h2 id="frozen">Frozen wallets</h2>
        <p style={styles.muted}>
          A refund or dispute took back coins already spent: the wallet owes the rest and cannot buy, bid, offer or list until later credits settle it.
        </p>
        {frozen.length === 0 ? (
          <p>No wallet is frozen.</p>
        ) : (
          <ScrollTable label="Frozen wallets">
            <TableHead columns={["Fan", "Balance", "Debt", "Since"]} />
            <tbody>
              {frozen.map((w) => (
                <tr key={w.userId} data-user={w.userId}>
                  <th scope="row" style={styles.rowHead}>
                    {w.handle ? `@${w.handle}` : <span style={styles.muted}>no handle</span>}
                    <br />
                    <a href={`/admin/economy?user=${w.userId}`}>
                      <code style={{ fontSize: 12 }}>{w.userId}</code>
                    </a>
                  </th>
                  <td style={styles.td}>{formatCoins(w.balance)}</td>
                  <td style={styles.td} data-testid="debt">
                    {formatCoins(w.debt)}
                  </td>
                  <td style={styles.td}>{when(w.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
      </section>
    </>
  );
}
