// Cookies that carry who is calling: the identity provider's session cookie (the staff console, the mobile sign-in).

/** Identity-provider session cookie set on this app's domain by the sign-in page (Clerk's `__session`). */
export const SESSION_COOKIE = "__session";

export function parseCookies(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) {
      try {
        out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        // ignore a malformed cookie value
      }
    }
  }
  return out;
}
