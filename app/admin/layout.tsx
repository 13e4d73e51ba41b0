import type { ReactNode } from "react";
import { mayOpen, type ConsoleArea } from "@/lib/auth/roles";
import { consoleSession } from "./_lib/gate";

// Staff console shell. Access is enforced by every page and server action (see _lib/gate.ts); the layout only
// decides whether to show the console's navigation, which it never shows to anyone but staff, and then only the
// areas the staff member's role opens (each page checks the same area again).

export const dynamic = "force-dynamic";
export const metadata = { title: "Staff console · Fan Engagement", robots: { index: false, follow: false } };

const NAV = [
  ["/admin", "Dashboard", "staff"],
  ["/admin/teams", "Teams", "admin"],
  ["/admin/leagues", "Leagues", "admin"],
  ["/admin/sync", "Sync", "admin"],
  ["/admin/live", "Live", "admin"],
  ["/admin/users", "Users", "users"],
  ["/admin/quests", "Quests", "admin"],
  ["/admin/rewards", "Rewards", "economy"],
  ["/admin/fulfilment", "Fulfilment", "economy"],
  ["/admin/moderation", "Moderation", "moderation"],
  ["/admin/economy", "Economy", "economy"],
  ["/admin/market", "Market", "economy"],
  ["/admin/drops", "Drops", "economy"],
  ["/admin/progress", "Tiers & badges", "admin"],
  ["/admin/contests", "Contests", "economy"],
  ["/admin/payments", "Payments", "economy"],
  ["/admin/deletions", "Deletions", "support"],
  ["/admin/push", "Push", "admin"],
  ["/admin/trends", "Trends", "admin"],
  ["/admin/flags", "Flags", "admin"],
  ["/admin/announcements", "Announcements", "admin"],
  ["/admin/audit", "Audit log", "admin"],
] as const satisfies readonly (readonly [string, string, ConsoleArea])[];

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await consoleSession();
  if (session.kind !== "staff") return <>{children}</>;
  return (
    <div style={{ lineHeight: 1.5 }}>
      <header style={{ background: "#1f2d3d", color: "#fff", padding: "10px 24px", display: "flex", gap: 24, alignItems: "center", flexWrap: "wrap" }}>
        <strong>Staff console</strong>
        <nav aria-label="Console">
          <ul style={{ listStyle: "none", display: "flex", gap: 16, margin: 0, padding: 0 }}>
            {NAV.filter(([, , area]) => mayOpen(session.role, area)).map(([href, label]) => (
              <li key={href}>
                <a href={href} style={{ color: "#cfe3ff" }}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <form method="get" action="/admin/search" role="search" aria-label="Find anyone" style={{ display: "flex", gap: 6, marginLeft: "auto" }}>
          <input
            name="q"
            type="search"
            required
            maxLength={200}
            aria-label="Find a fan, team, post, listing, collectible or order"
            placeholder="Handle, e-mail, name or id"
            style={{ padding: "4px 8px", fontSize: 14, borderRadius: 4, border: "1px solid #8aa", minWidth: 240 }}
          />
          <button
            type="submit"
            style={{ padding: "4px 10px", fontSize: 14, borderRadius: 4, border: "1px solid #cfe3ff", background: "#2d4a6b", color: "#fff" }}
          >
            Find
          </button>
        </form>
        <span style={{ fontSize: 13, color: "#cbd5e1" }}>
          Signed in as <code>{session.externalId}</code> (<span data-testid="staff-role">{session.role}</span>)
        </span>
      </header>
      <main style={{ maxWidth: 1100, margin: "0 auto", padding: "16px 24px 48px" }}>{children}</main>
    </div>
  );
}
