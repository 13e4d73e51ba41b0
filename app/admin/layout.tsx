import type { ReactNode } from "react";
import { mayOpen } from "@/lib/auth/roles";
import { consoleSession } from "./_lib/gate";
import { NAV } from "./_lib/nav";
import "./_lib/console.css";

// Staff console shell. Access is enforced by every page and server action (see _lib/gate.ts); the layout only
// decides whether to show the console's navigation, which it never shows to anyone but staff, and then only the
// areas the staff member's role opens (each page checks the same area again).

export const dynamic = "force-dynamic";
export const metadata = { title: "Staff console · Fan Engagement", robots: { index: false, follow: false } };

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await consoleSession();
  if (session.kind !== "staff") return <>{children}</>;
  return (
    <div style={{ lineHeight: 1.5 }}>
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <header style={{ background: "#1f2d3d", color: "#fff", padding: "10px 24px", display: "flex", gap: 24, alignItems: "center", flexWrap: "wrap" }}>
        <strong>Staff console</strong>
        <nav aria-label="Console">
          <ul style={{ listStyle: "none", display: "flex", flexWrap: "wrap", gap: "4px 16px", margin: 0, padding: 0 }}>
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
      <main id="main" tabIndex={-1} style={{ maxWidth: 1100, margin: "0 auto", padding: "16px 24px 48px" }}>
        {children}
      </main>
    </div>
  );
}
