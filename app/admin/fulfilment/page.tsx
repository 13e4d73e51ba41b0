import Link from "next/link";
import { db } from "@/lib/db/client";
import { staffClaims } from "@/lib/features/rewards/fulfilment";
import { fulfilmentRewards, type FulfilmentStatus } from "@/lib/features/rewards/queries";
import { requireStaff } from "../_lib/gate";
import { Confirm, first, LabelledSelect, Notice, type SearchParams, styles, TableHead, TextArea, when, ScrollTable } from "../_lib/ui";
import { addCodesAction, moveClaimAction, setKindAction } from "./actions";
import { DONE, ERRORS, FULFILMENT_KINDS, STATUS_TABS } from "./shared";

// Reward fulfilment (lib/features/rewards/fulfilment.ts): the claims by status (pending physical claims first, with the
// shipping address), moving them (shipped with tracking, delivered, failed → the Rep and stock given back once),
// voucher pools (paste codes) and each reward's fulfilment kind. Every write needs Confirm and is audited by the
// service the staff API uses.

const NEXT: Record<FulfilmentStatus, ("shipped" | "delivered" | "failed")[]> = {
  pending: ["shipped", "failed"],
  shipped: ["delivered", "failed"],
  delivered: [],
  fulfilled: ["failed"],
  failed: [],
};

function addressLines(a: Record<string, string | null> | null) {
  if (!a) return "—";
  return [a.name, a.line1, a.line2, [a.postalCode, a.city].filter(Boolean).join(" "), a.region, a.country, a.phone].filter(Boolean).join(", ");
}

export default async function FulfilmentPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/fulfilment", "economy");
  const sp = await searchParams;
  const tabParam = first(sp.status);
  const status: FulfilmentStatus = (STATUS_TABS as readonly string[]).includes(tabParam ?? "") ? (tabParam as FulfilmentStatus) : "pending";
  const [page, rewards] = await Promise.all([staffClaims(db, { status, cursor: undefined, limit: 100 }), fulfilmentRewards(db)]);
  const done = first(sp.done);
  const error = first(sp.error);
  const vouchers = rewards.filter((r) => r.fulfilment === "voucher");

  return (
    <>
      <h1>Fulfilment</h1>
      {done && DONE[done] ? (
        <Notice>{done === "codes" ? `${DONE.codes} Added ${first(sp.added) ?? 0}; ${first(sp.available) ?? 0} free in the pool.` : DONE[done]}</Notice>
      ) : null}
      {error ? <Notice kind="error">{`${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}

      <nav aria-label="Claim status" style={{ display: "flex", gap: 12, margin: "8px 0" }}>
        {STATUS_TABS.map((s) => (
          <Link
            key={s}
            href={`/admin/fulfilment?status=${s}`}
            aria-current={s === status ? "page" : undefined}
            style={{ fontWeight: s === status ? 700 : 400 }}
          >
            {s}
          </Link>
        ))}
      </nav>

      <h2>Claims: {status}</h2>
      {page.claims.length === 0 ? <p>No {status} claims.</p> : null}
      {page.claims.length ? (
        <ScrollTable label="Claims">
          <TableHead columns={["Claim", "Reward", "Fan", "Claimed", "Ship to", "Tracking", "Actions"]} />
          <tbody>
            {page.claims.map((c) => (
              <tr key={c.id} data-claim={c.id} data-status={c.fulfilment.status}>
                <th scope="row" style={styles.rowHead}>
                  <code>{c.id}</code>
                  <div style={styles.muted}>
                    {c.fulfilment.kind} · {c.fulfilment.status}
                    {c.fulfilment.refundedAt ? ` · refunded ${when(c.fulfilment.refundedAt)}` : ""}
                  </div>
                </th>
                <td style={styles.td}>{c.rewardTitle}</td>
                <td style={styles.td}>
                  <code>{c.userId}</code>
                </td>
                <td style={styles.td}>{when(c.claimedAt)}</td>
                <td style={styles.td} data-testid="address">
                  {addressLines(c.fulfilment.shippingAddress)}
                </td>
                <td style={styles.td}>{c.fulfilment.trackingCode ?? "—"}</td>
                <td style={styles.td}>
                  <div style={{ display: "flex", flexDirection: "column", gap: 6 }}>
                    {NEXT[c.fulfilment.status].map((to) => (
                      <form
                        key={to}
                        action={moveClaimAction}
                        aria-label={`Mark ${c.id} ${to}`}
                        style={{ display: "flex", gap: 6, alignItems: "center", flexWrap: "wrap" }}
                      >
                        <input type="hidden" name="claimId" value={c.id} />
                        <input type="hidden" name="status" value={to} />
                        <input type="hidden" name="tab" value={status} />
                        {to === "shipped" ? (
                          <input
                            name="trackingCode"
                            maxLength={100}
                            placeholder="Tracking code"
                            aria-label="Tracking code"
                            style={{ ...styles.input, width: 140 }}
                          />
                        ) : null}
                        {to === "failed" ? (
                          <input name="note" maxLength={500} placeholder="Why" aria-label="Why it failed" style={{ ...styles.input, width: 140 }} />
                        ) : null}
                        <Confirm />
                        <button type="submit" style={styles.secondary}>
                          {to === "failed" ? "Mark failed (refund)" : `Mark ${to}`}
                        </button>
                      </form>
                    ))}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      {page.nextCursor ? <p style={styles.muted}>Showing the oldest 100; more are waiting.</p> : null}

      <h2>Voucher pools</h2>
      {vouchers.length === 0 ? <p>No voucher rewards: set a reward&apos;s fulfilment kind to voucher below.</p> : null}
      {vouchers.length ? (
        <form action={addCodesAction} aria-label="Add voucher codes" style={styles.form}>
          <LabelledSelect name="rewardId" label="Reward" options={vouchers.map((r) => ({ value: r.id, label: `${r.title} (${r.freeCodes} free)` }))} required />
          <TextArea label="Codes, one per line" name="codes" required rows={6} cols={40} />
          <Confirm />
          <button type="submit" style={styles.button}>
            Add codes
          </button>
        </form>
      ) : null}

      <h2>Fulfilment kind per reward</h2>
      <ScrollTable label="Rewards">
        <TableHead columns={["Reward", "Kind", "Free codes", "Open claims", "Change"]} />
        <tbody>
          {rewards.map((r) => (
            <tr key={r.id} data-reward={r.id}>
              <th scope="row" style={styles.rowHead}>
                {r.title}
                {r.active ? "" : " (inactive)"}
              </th>
              <td style={styles.td}>{r.fulfilment}</td>
              <td style={styles.td}>{r.fulfilment === "voucher" ? r.freeCodes : "—"}</td>
              <td style={styles.td}>{r.pending}</td>
              <td style={styles.td}>
                <form action={setKindAction} aria-label={`Fulfilment of ${r.title}`} style={{ display: "flex", gap: 6, alignItems: "center" }}>
                  <input type="hidden" name="rewardId" value={r.id} />
                  <select name="fulfilment" defaultValue={r.fulfilment} style={styles.input} aria-label="Fulfilment kind">
                    {FULFILMENT_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {k}
                      </option>
                    ))}
                  </select>
                  <Confirm />
                  <button type="submit" style={styles.secondary}>
                    Save
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </>
  );
}
