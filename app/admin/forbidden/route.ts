import { checkStaff, signInUrl } from "@/lib/auth/staff";
import { sessionToken } from "../_lib/gate";

// The console's 403 page. A route handler rather than a page so the status is a real 403 (forbidden() needs
// experimental.authInterrupts). Staff land here when their role does not open the page or action (lib/auth/roles.ts).

export const dynamic = "force-dynamic";

export async function GET() {
  const session = await checkStaff(await sessionToken());
  if (session.kind === "staff") {
    const html = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="robots" content="noindex">
<title>Not for your role</title>
<body style="font-family:system-ui,sans-serif;max-width:560px;margin:64px auto;padding:0 16px;line-height:1.5;color:#1a1a1a">
<h1>Not for your role</h1>
<p>Your staff role (<code>${session.role}</code>) does not open that page or action; nothing was changed.</p>
<p><a href="/admin">Back to the dashboard</a></p>
</body></html>`;
    return new Response(html, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="robots" content="noindex">
<title>Staff only</title>
<body style="font-family:system-ui,sans-serif;max-width:560px;margin:64px auto;padding:0 16px;line-height:1.5;color:#1a1a1a">
<h1>Staff only</h1>
<p>This console is for staff. ${session.kind === "forbidden" ? "Your account does not have the staff role." : "You are not signed in."}</p>
<p>If you were just given the role, it applies at your next session refresh: sign out and in again.</p>
<p><a href="${signInUrl("/admin").replace(/&/g, "&amp;").replace(/"/g, "&quot;")}">Sign in with a staff account</a></p>
</body></html>`;
  return new Response(html, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
