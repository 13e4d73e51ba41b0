import type { Db } from "../db/client";
import { DomainError } from "../http/errors";
import { log } from "../http/log";
import { identityProvider, type IdentityProvider, type IdpUser } from "../identity/provider";
import { getProfile } from "./profile";
import { DISPLAY_NAME_MAX } from "./schemas";

// POST /api/user/sync-idp: pull the caller's record from the identity provider. Email always mirrors the provider;
// the display name is filled from first + last name only while the user has none; the avatar follows the
// provider's image only while the user has no uploaded avatar (avatar_key null). Both conditions are part of the
// UPDATE's WHERE clause, so an upload or a rename racing with the sync is never overwritten.

function nameOf(u: IdpUser): string | null {
  const name = [u.firstName, u.lastName]
    // Control characters become spaces; invisible formatting characters (as refused in display names) are dropped.
    .map((s) => (s ?? "").replace(/[\u0000-\u001f\u007f]|\p{Zl}|\p{Zp}/gu, " ").replace(/\p{Cf}/gu, "").trim())
    .filter(Boolean)
    .join(" ")
    .replace(/\s+/g, " ");
  return name ? name.slice(0, DISPLAY_NAME_MAX).trim() : null;
}

export async function syncFromIdentityProvider(db: Db, user: { id: string; externalId: string }, provider: IdentityProvider = identityProvider()) {
  let remote: IdpUser | null;
  try {
    remote = await provider.getUser(user.externalId);
  } catch (error) {
    log("warn", { msg: "identity provider lookup failed", error: error instanceof Error ? error.message : String(error) });
    throw new DomainError("UPSTREAM_ERROR", "The identity provider could not be reached; try again later.");
  }
  if (!remote) throw new DomainError("NOT_FOUND", "The identity provider has no record of this user.");

  const displayName = nameOf(remote);
  const now = new Date();
  await db.$transaction([
    db.user.update({ where: { id: user.id }, data: { email: remote.email, idpSyncedAt: now }, select: { id: true } }),
    ...(displayName ? [db.user.updateMany({ where: { id: user.id, displayName: null }, data: { displayName } })] : []),
    db.user.updateMany({
      where: { id: user.id, avatarKey: null },
      data: { avatarUrl: remote.imageUrl, avatarThumbhash: null },
    }),
  ]);
  return getProfile(db, user.id);
}
