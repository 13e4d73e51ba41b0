import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { consoleFan, type ConsoleFan } from "@/lib/operations/admin/service";
import { mayOpen } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { requireStaff } from "../../_lib/gate";
import { Confirm, Field, first, Notice, ROLE_LABEL, styles, when, type SearchParams } from "../../_lib/ui";
import { ECONOMY_ERRORS, formatCoins } from "../../economy/shared";
import { ReverseCell } from "../ledger/reverse";
import { adjustFanWalletAction } from "./actions";
import { Audit, Devices, Moderation, Rows, Section, SignIns, td } from "./sections";

// A fan's whole account on one page: every section is one indexed read of its newest rows (lib/operations/admin consoleFan);
// the wallet adjustment and the Rep reversal are confirmed and audited, and the audit entries about the fan close
// the page (docs/decisions/0059).

const ERRORS: Record<string, string> = {
  ...ECONOMY_ERRORS,
  confirm: "Tick Confirm first.",
  reason: "Enter a reason for the reversal (3-200 characters).",
  entryId: "No such ledger entry.",
  missing: "No such ledger entry for this user.",
  not_credit: "Only credits can be reversed (not debits or reversals).",
  already: "That entry was already reversed.",
  balance: "The fan's Rep balance is lower than that credit (they spent it), so it cannot be reversed.",
};
const DONE: Record<string, string> = { adjusted: "Wallet adjusted.", reversed: "Rep entry reversed: a compensating entry was added." };

export default async function FanPage({ params, searchParams }: { params: Promise<{ userId: string }>; searchParams: SearchParams }) {
  const { userId } = await params;
  const staff = await requireStaff(`/admin/users/${encodeURIComponent(userId)}`, "users");
  const sp = await searchParams;
  const fan = await consoleFan(db, userId, { wallet: first(sp.wallet), audit: first(sp.audit) });
  if (!fan) notFound();
  const done = first(sp.done);
  const error = first(sp.error);
  const p = fan.profile;
  const self = `/admin/users/${p.id}`;
  return (
    <>
      <p>
        <a href="/admin/users">← Users</a>
      </p>
      <h1>{p.handle ? `@${p.handle}` : p.externalId}</h1>
      {done && DONE[done] ? <Notice>{DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}
      <Profile fan={fan} />
      <Teams fan={fan} />
      {/* Each action shows only to the roles that may take it (lib/auth/roles.ts); the action checks again. */}
      <Rep fan={fan} mayReverse={mayOpen(staff.role, "support")} />
      <Wallet fan={fan} self={self} mayAdjust={mayOpen(staff.role, "wallets")} />
      <Section id="collectibles" title="Collectibles">
        <Rows
          label="Collectibles"
          columns={["Card", "Serial", "Rarity", "Acquired", "Id"]}
          rows={fan.collectibles}
          row={(c) => (
            <tr key={c.id}>
              <th scope="row" style={styles.rowHead}>
                {c.cardName}
              </th>
              <td style={td}>#{c.serial}</td>
              <td style={td}>{c.rarity}</td>
              <td style={td}>{when(c.acquiredAt)}</td>
              <td style={td}>
                <code>{c.id}</code>
              </td>
            </tr>
          )}
        />
      </Section>
      <Market fan={fan} />
      <Section id="orders" title="Orders (top-ups and packs)">
        <Rows
          label="Orders"
          columns={["When", "Kind", "What", "State", "Amount", "Id"]}
          rows={fan.orders}
          row={(o) => (
            <tr key={o.id}>
              <th scope="row" style={styles.rowHead}>
                {when(o.createdAt)}
              </th>
              <td style={td}>{o.kind}</td>
              <td style={td}>{o.what}</td>
              <td style={td}>{o.state}</td>
              <td style={td}>
                {o.kind === "pack" ? formatCoins(o.amount) : (o.amount / 100).toFixed(2)} {o.currency}
              </td>
              <td style={td}>
                <code>{o.id}</code>
              </td>
            </tr>
          )}
        />
        <p style={{ fontSize: 13 }}>
          <a href="/admin/payments">Payments</a>
        </p>
      </Section>
      <Moderation fan={fan} />
      <Devices fan={fan} />
      <SignIns fan={fan} />
      <Audit fan={fan} self={self} />
    </>
  );
}

function Profile({ fan }: { fan: ConsoleFan }) {
  const p = fan.profile;
  const d = p.deletion;
  const items: [string, ReactNode][] = [
    ["User id", <code key="id">{p.id}</code>],
    ["External id", <code key="ext">{p.externalId}</code>],
    ["Display name", p.displayName ?? "—"],
    ["E-mail", p.email ?? "—"],
    [
      "Staff role",
      <span key="role" data-testid="role">
        {ROLE_LABEL[fan.role]}
      </span>,
    ],
    ["Joined", when(p.createdAt)],
    ["Onboarded", when(p.onboardedAt)],
    ["Private profile", p.isPrivate ? "yes" : "no"],
    ["Country / time zone", `${p.country ?? "—"} / ${p.timezone ?? "UTC"}`],
    ["Notifications", `teams ${p.notifyTeams ? "on" : "off"}, milestones ${p.notifyMilestones ? "on" : "off"}, community ${p.notifyCommunity ? "on" : "off"}`],
    ["Personalization", p.analyticsPersonalization ? "on" : "off"],
    ["Terms accepted", p.ugcTermsVersion ? `${p.ugcTermsVersion} (${when(p.ugcTermsAcceptedAt)})` : "—"],
    ["Followers / following", `${p.followerCount} / ${p.followingCount}`],
    ["Suspended until", when(p.suspendedUntil)],
    ["Trading restricted until", when(p.tradingRestrictedUntil)],
    ["Identity provider synced", when(p.idpSyncedAt)],
    [
      "Deletion",
      <span key="del" data-testid="deletion">
        {d ? `${d.state}: requested ${when(d.requestedAt)}, due ${when(d.dueAt)}${d.erasedAt ? `, erased ${when(d.erasedAt)}` : ""}` : "not requested"}
      </span>,
    ],
  ];
  return (
    <Section id="profile" title="Profile and settings">
      <dl style={{ display: "grid", gridTemplateColumns: "minmax(160px, max-content) 1fr", gap: "4px 16px", margin: 0 }}>
        {items.map(([k, v]) => (
          <div key={k} style={{ display: "contents" }}>
            <dt style={styles.muted}>{k}</dt>
            <dd style={{ margin: 0 }}>{v}</dd>
          </div>
        ))}
      </dl>
      <p style={{ fontSize: 13 }}>
        <a href={`/admin/users?${new URLSearchParams({ q: p.externalId })}`}>Grant or revoke the staff role</a>
      </p>
    </Section>
  );
}

function Teams({ fan }: { fan: ConsoleFan }) {
  return (
    <Section id="teams" title="Teams">
      <Rows
        label="Teams"
        newest={false}
        columns={["Team", "Relation", "Since"]}
        rows={fan.teams}
        row={(t) => (
          <tr key={`${t.relation}:${t.teamId}`}>
            <th scope="row" style={styles.rowHead}>
              {t.name ?? t.teamId}
            </th>
            <td style={td}>{t.relation}</td>
            <td style={td}>{when(t.since)}</td>
          </tr>
        )}
      />
    </Section>
  );
}

function Rep({ fan, mayReverse }: { fan: ConsoleFan; mayReverse: boolean }) {
  return (
    <Section id="rep" title="Rep">
      <p>
        Balance <strong data-testid="rep-balance">{fan.profile.repBalance}</strong> Rep · spent {fan.profile.repSpent} ·{" "}
        <a href={`/admin/users/ledger?${new URLSearchParams({ user: fan.profile.id })}`}>whole ledger</a>
      </p>
      <Rows
        label="Rep ledger"
        columns={["When", "Amount", "Kind", "Source", "Reason", "Action"]}
        rows={fan.rep}
        row={(e) => (
          <tr key={e.id} data-entry={e.id}>
            <th scope="row" style={styles.rowHead}>
              {when(e.createdAt)}
            </th>
            <td style={td}>{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
            <td style={td}>
              <code>{e.earnKind}</code>
            </td>
            <td style={td}>{e.source}</td>
            <td style={td}>{e.reason}</td>
            <td style={td}>
              {mayReverse ? (
                <ReverseCell userId={fan.profile.id} entry={e} reversedAt={e.reversedAt} fromFan />
              ) : e.reversedAt ? (
                `Reversed ${when(e.reversedAt)}`
              ) : null}
            </td>
          </tr>
        )}
      />
    </Section>
  );
}

function Wallet({ fan, self, mayAdjust }: { fan: ConsoleFan; self: string; mayAdjust: boolean }) {
  const coin = fan.wallets.find((w) => w.currency === "COIN");
  const t = fan.transactions;
  return (
    <Section id="wallet" title="Wallet">
      <p>
        Balance <strong data-testid="wallet-balance">{formatCoins(coin?.balance ?? 0)}</strong> COIN
        {coin?.debt ? ` · debt ${formatCoins(coin.debt)} (frozen)` : ""}
      </p>
      {mayAdjust ? (
        <form action={adjustFanWalletAction} aria-label="Adjust the wallet" style={styles.form}>
          <input type="hidden" name="userId" value={fan.profile.id} />
          <Field label="Amount (coins, negative to debit)" name="amount" required inputMode="decimal" pattern="[+\-]?\d{1,7}(\.\d{1,2})?" />
          <Field label="Reason" name="note" required maxLength={500} minWidth={260} />
          <Confirm />
          <button type="submit" style={styles.button}>
            Adjust
          </button>
        </form>
      ) : null}
      <h3 style={{ fontSize: 16 }}>Transactions{t.paged ? " (older)" : ""}</h3>
      <Rows
        label="Wallet transactions"
        newest={false}
        columns={["When", "Amount", "Balance after", "Reason", "Reference", "Note"]}
        rows={t.rows}
        row={(r) => (
          <tr key={r.id}>
            <th scope="row" style={styles.rowHead}>
              {when(r.createdAt)}
            </th>
            <td style={td}>{formatCoins(r.amount)}</td>
            <td style={td}>{formatCoins(r.balanceAfter)}</td>
            <td style={td}>{r.reason}</td>
            <td style={td}>
              {r.referenceType} <code>{r.referenceId}</code>
            </td>
            <td style={td}>{r.note ?? ""}</td>
          </tr>
        )}
      />
      <p style={{ fontSize: 13 }}>
        {t.paged ? <a href={`${self}#wallet`}>Newest</a> : null}
        {t.paged && t.nextCursor ? " · " : null}
        {t.nextCursor ? <a href={`${self}?${new URLSearchParams({ wallet: t.nextCursor })}#wallet`}>Older transactions</a> : null}
      </p>
    </Section>
  );
}

function Market({ fan }: { fan: ConsoleFan }) {
  return (
    <>
      <Section id="listings" title="Listings">
        <Rows
          label="Listings"
          columns={["Created", "Kind", "Status", "Price", "Sold for", "Id"]}
          rows={fan.listings}
          row={(l) => (
            <tr key={l.id}>
              <th scope="row" style={styles.rowHead}>
                {when(l.createdAt)}
              </th>
              <td style={td}>{l.kind}</td>
              <td style={td}>{l.status}</td>
              <td style={td}>{formatCoins(l.price)}</td>
              <td style={td}>{l.salePrice === null ? "—" : formatCoins(l.salePrice)}</td>
              <td style={td}>
                <code>{l.id}</code>
              </td>
            </tr>
          )}
        />
      </Section>
      <Section id="offers" title="Offers made">
        <Rows
          label="Offers"
          columns={["Created", "Amount", "Status", "Expires", "Item"]}
          rows={fan.offers}
          row={(o) => (
            <tr key={o.id}>
              <th scope="row" style={styles.rowHead}>
                {when(o.createdAt)}
              </th>
              <td style={td}>{formatCoins(o.amount)}</td>
              <td style={td}>{o.status}</td>
              <td style={td}>{when(o.expiresAt)}</td>
              <td style={td}>
                <code>{o.collectibleId}</code>
              </td>
            </tr>
          )}
        />
      </Section>
      <Section id="trades" title="Trades">
        <Rows
          label="Trades"
          columns={["Created", "Role", "Other fan", "Status", "Coins offered / asked", "Id"]}
          rows={fan.trades}
          row={(t) => (
            <tr key={t.id}>
              <th scope="row" style={styles.rowHead}>
                {when(t.createdAt)}
              </th>
              <td style={td}>{t.role}</td>
              <td style={td}>
                <a href={`/admin/users/${t.otherId}`}>{t.otherId}</a>
              </td>
              <td style={td}>{t.status}</td>
              <td style={td}>
                {formatCoins(t.offerCoins)} / {formatCoins(t.askCoins)}
              </td>
              <td style={td}>
                <code>{t.id}</code>
              </td>
            </tr>
          )}
        />
        <p style={{ fontSize: 13 }}>
          <a href="/admin/market">Market oversight</a>
        </p>
      </Section>
    </>
  );
}
