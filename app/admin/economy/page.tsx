import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/kernel/schemas";
import { browseListings } from "@/lib/features/marketplace/service";
import { listPacks } from "@/lib/features/packs/service";
import { catalogSummary } from "@/lib/core/collectibles/service";
import { checkInvariant } from "@/lib/operations/invariants/economy";
import { getWallets, listTransactions } from "@/lib/core/wallets/service";
import { requireStaff } from "../_lib/gate";
import { Field, first, Notice, styles, type SearchParams, TableHead, when, ScrollTable } from "../_lib/ui";
import { adjustWalletAction, cancelListingAction, refundSaleAction, setPackStockAction } from "./actions";
import { ECONOMY_DONE, ECONOMY_ERRORS, formatCoins } from "./shared";

// The economy: the wallet ledger invariant, wallet adjustments with a reason (and a user's ledger), the pack
// catalog with its odds and stock, and marketplace oversight (cancel a listing, refund a sale).

export default async function EconomyPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/economy", "economy");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const userParam = first(sp.user);
  const user = userParam && UUID_PATTERN.test(userParam) ? userParam.toLowerCase() : undefined;
  const [invariant, packs, catalog, active, sold, wallet, ledger] = await Promise.all([
    checkInvariant(db),
    listPacks(db),
    catalogSummary(db),
    browseListings(db, { status: "active", sort: "newest", limit: 20 }),
    browseListings(db, { status: "sold", sort: "newest", limit: 20 }),
    user ? getWallets(db, user) : undefined,
    user ? listTransactions(db, user, { currency: "COIN", limit: 50 }) : undefined,
  ]);

  return (
    <>
      <h1>Economy</h1>
      {done && ECONOMY_DONE[done] ? <Notice>{ECONOMY_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${ECONOMY_ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      <section aria-labelledby="invariant">
        <h2 id="invariant">Economy invariant</h2>
        <p data-testid="invariant" data-ok={String(invariant.ok)}>
          {invariant.ok
            ? "OK: every wallet's balance equals the sum of its ledger, and every active listing's seller owns the item."
            : `BROKEN: ${invariant.mismatches.length} wallet(s) disagree with their ledger; ${invariant.staleListings.length} active listing(s) of an item the seller no longer owns; ${invariant.paymentMismatches.length} user(s) whose top-up books disagree.`}{" "}
          <span style={styles.muted}>
            {invariant.wallets} wallets, {invariant.transactions} transactions, {formatCoins(invariant.balances)} coins in all; checked{" "}
            {when(new Date(invariant.checkedAt))}.
          </span>
        </p>
        {invariant.mismatches.length ? (
          <ScrollTable label="Wallets off their ledger">
            <TableHead columns={["User", "Balance", "Ledger sum", "Transactions"]} />
            <tbody>
              {invariant.mismatches.map((m) => (
                <tr key={m.userId}>
                  <td style={styles.td}>
                    <code>{m.userId}</code>
                  </td>
                  <td style={styles.td}>{formatCoins(m.balance)}</td>
                  <td style={styles.td}>{formatCoins(m.ledgerSum)}</td>
                  <td style={styles.td}>{m.transactions}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        ) : null}
        {invariant.staleListings.length ? (
          <ScrollTable label="Active listings of items their seller no longer owns">
            <TableHead columns={["Listing", "Collectible", "Seller", "Owner"]} />
            <tbody>
              {invariant.staleListings.map((l) => (
                <tr key={l.listingId}>
                  {[l.listingId, l.collectibleId, l.sellerId, l.ownerId].map((id) => (
                    <td key={id} style={styles.td}>
                      <code>{id}</code>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        ) : null}
      </section>

      <section aria-labelledby="adjust">
        <h2 id="adjust">Adjust a wallet</h2>
        <form action={adjustWalletAction} style={styles.form}>
          <Field label="User id" name="userId" required defaultValue={user ?? ""} width={320} />
          <Field label="Amount (coins, negative to debit)" name="amount" required placeholder="12.50" />
          <Field label="Reason" name="note" required maxLength={500} width={280} />
          <button type="submit" style={styles.button}>
            Adjust
          </button>
        </form>
        <form method="get" style={styles.form}>
          <Field label="Show a user's wallet" name="user" defaultValue={user ?? ""} width={320} />
          <button type="submit" style={styles.secondary}>
            Show
          </button>
        </form>
        {wallet && ledger ? (
          <>
            <p data-testid="balance">
              Balance of <code>{user}</code>: <strong>{formatCoins(wallet.wallets[0]!.balance)}</strong> coins
            </p>
            <ScrollTable label="Ledger">
              <TableHead columns={["When", "Amount", "Balance after", "Reason", "Reference", "Note"]} />
              <tbody>
                {ledger.transactions.map((t) => (
                  <tr key={t.id} data-reason={t.reason}>
                    <td style={styles.td}>{when(new Date(t.createdAt))}</td>
                    <td style={styles.td} data-testid="amount">
                      {formatCoins(t.amount)}
                    </td>
                    <td style={styles.td}>{formatCoins(t.balanceAfter)}</td>
                    <td style={styles.td}>{t.reason}</td>
                    <td style={styles.td}>
                      {t.referenceType} <code>{t.referenceId}</code>
                    </td>
                    <td style={styles.td}>{t.note ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          </>
        ) : null}
      </section>

      <section aria-labelledby="packs">
        <h2 id="packs">Packs</h2>
        <ScrollTable label="Packs">
          <TableHead columns={["Pack", "Price", "Items", "Stock", "On sale", "Odds (v)", "Set stock"]} />
          <tbody>
            {packs.packs.map((p) => (
              <tr key={p.id} data-pack={p.id}>
                <th scope="row" style={styles.rowHead}>
                  {p.name}
                </th>
                <td style={styles.td}>{formatCoins(p.price)}</td>
                <td style={styles.td}>{p.itemsPerPack}</td>
                <td style={styles.td}>{p.stock === null ? "Unlimited" : `${p.remaining} of ${p.stock} left`}</td>
                <td style={styles.td}>{p.grantOnly ? "Granted at onboarding" : p.onSale ? "Yes" : "No"}</td>
                <td style={styles.td}>
                  {p.odds.rarities.map((r) => `${r.rarity} ${r.percent}% (${r.cards} cards)`).join(", ")} (v{p.odds.version})
                </td>
                <td style={styles.td}>
                  {p.grantOnly ? null : (
                    <form action={setPackStockAction} style={{ display: "flex", gap: 6 }}>
                      <input type="hidden" name="packId" value={p.id} />
                      <input
                        name="stock"
                        inputMode="numeric"
                        aria-label={`Stock of ${p.name}`}
                        placeholder="unlimited"
                        style={{ ...styles.input, width: 90 }}
                      />
                      <button type="submit" style={styles.secondary}>
                        Set
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>

      <section aria-labelledby="catalog">
        <h2 id="catalog">Collectibles catalog</h2>
        <ScrollTable label="Catalog" style={{ maxWidth: 640 }}>
          <TableHead columns={["Rarity", "Cards", "Copies drawn", "Copies possible"]} />
          <tbody>
            {catalog.map((c) => (
              <tr key={c.rarity} data-rarity={c.rarity}>
                <th scope="row" style={styles.rowHead}>
                  {c.rarity}
                </th>
                <td style={styles.td}>{c.cards}</td>
                <td style={styles.td}>{c.minted}</td>
                <td style={styles.td}>{c.editions}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>

      <section aria-labelledby="listings">
        <h2 id="listings">Active listings</h2>
        <ListingTable rows={active.listings} label="Active listings" action={cancelListingAction} actionLabel="Cancel" />
        <h2 id="sales">Recent sales</h2>
        <ListingTable rows={sold.listings} label="Recent sales" action={refundSaleAction} actionLabel="Refund" />
      </section>
    </>
  );
}

type ListingView = Awaited<ReturnType<typeof browseListings>>["listings"][number];

function ListingTable({
  rows,
  label,
  action,
  actionLabel,
}: {
  rows: ListingView[];
  label: string;
  action: (f: FormData) => Promise<void>;
  actionLabel: string;
}) {
  if (rows.length === 0) return <p>None.</p>;
  return (
    <ScrollTable label={label}>
      <TableHead columns={["Item", "Kind", "Price", "Seller", "Buyer", "Listed", ""]} />
      <tbody>
        {rows.map((l) => (
          <tr key={l.id} data-listing={l.id}>
            <th scope="row" style={styles.rowHead}>
              {l.collectible.card.name} #{l.collectible.serial}
            </th>
            <td style={styles.td}>{l.kind}</td>
            <td style={styles.td}>{formatCoins(l.sale?.price ?? l.price)}</td>
            <td style={styles.td}>{l.seller.handle ?? l.seller.id}</td>
            <td style={styles.td}>{l.sale?.buyerId ?? ""}</td>
            <td style={styles.td}>{when(new Date(l.createdAt))}</td>
            <td style={styles.td}>
              {l.refundedAt ? (
                "Refunded"
              ) : (
                <form action={action}>
                  <input type="hidden" name="listingId" value={l.id} />
                  <button type="submit" style={styles.secondary} aria-label={`${actionLabel} ${l.collectible.card.name} #${l.collectible.serial}`}>
                    {actionLabel}
                  </button>
                </form>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
