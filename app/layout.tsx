import type { ReactNode } from "react";

export const metadata = { title: "Fan Engagement API" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: 0, color: "#1a1a1a" }}>{children}</body>
    </html>
  );
}
