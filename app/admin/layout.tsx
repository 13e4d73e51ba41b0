import type { ReactNode } from "react";
import { consoleSession } from "./_lib/gate";
import { NAV } from "./_lib/nav";
import "./_lib/console.css";

// Staff console shell. Access is enforced by every page and server action (see _lib/gate.ts); the layout only
// decides whether to show the console's navigation, which it never shows to anyone but staff.

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
            {NAV.map(([href, label]) => (
              <li key={href}>
                <a href={href} style={{ color: "#cfe3ff" }}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span style={{ marginLeft: "auto", fontSize: 13, color: "#cbd5e1" }}>
          Signed in as <code>{session.externalId}</code>
        </span>
      </header>
      <main id="main" tabIndex={-1} style={{ maxWidth: 1100, margin: "0 auto", padding: "16px 24px 48px" }}>
        {children}
      </main>
    </div>
  );
}
