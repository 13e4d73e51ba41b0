import { z } from "zod";
import { sellerReputation } from "../market-data/schemas";
import { cursorQuery, intQuery, isoDateTime, UUID_PATTERN } from "../../kernel/schemas";
import { favoriteTeam } from "../teams/schemas";

/** At most this many ids per GET /api/v1/users/relationships. */
export const RELATIONSHIPS_MAX = 50;

/** A user named in a path: by id, or by handle with a leading @ (case-insensitive). */
export type UserRef = { id: string } | { handleKey: string };

const HANDLE_REF = /^@[A-Za-z0-9_]{3,30}$/;

export const userRefParams = z.strictObject({
  userId: z
    .string()
    .refine((s) => UUID_PATTERN.test(s) || HANDLE_REF.test(s), "A user id (UUID) or @handle")
    .transform((s): UserRef => (s.startsWith("@") ? { handleKey: s.slice(1).toLowerCase() } : { id: s.toLowerCase() }))
    .meta({ description: "The user's id (UUID), or their handle with a leading @ (`@alice`, case-insensitive)." }),
});

export const followListQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });

const idsQuery = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).map((s) => s.trim()))
  .pipe(
    z
      .array(z.string().regex(UUID_PATTERN, "Must be a user id (UUID)"))
      .min(1, "Send at least one id")
      .max(RELATIONSHIPS_MAX, `At most ${RELATIONSHIPS_MAX} ids`),
  )
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
  .meta({
    description: `User ids (UUIDs), comma-separated (\`ids=a,b\`) or repeated (\`ids=a&ids=b\`): 1..${RELATIONSHIPS_MAX}.`,
    examples: ["0196f1c2-7a10-7cc1-9d7e-3c1b2a4d5e6f,0196f1c2-7a10-7cc1-9d7e-3c1b2a4d5e70"],
  });

export const relationshipsQuery = z.strictObject({ ids: idsQuery });

export const relationship = z
  .object({
    id: z.string().meta({ description: "The other user." }),
    following: z.boolean().meta({ description: "The caller follows them." }),
    followedBy: z.boolean().meta({ description: "They follow the caller." }),
    requested: z.boolean().meta({ description: "The caller asked to follow their private profile; the request is pending." }),
    blocking: z.boolean().meta({ description: "The caller blocked them." }),
    blockedBy: z.boolean().meta({ description: "They blocked the caller." }),
    muting: z.boolean().meta({ description: "The caller mutes them now (a timed mute ends at its expiresAt); never shown to the muted side." }),
  })
  .meta({ id: "Relationship", description: "How the caller and another user stand." });
export type Relationship = z.infer<typeof relationship>;

export const relationshipList = z
  .object({ relationships: z.array(relationship).meta({ description: "One per existing user asked about, in the order asked; unknown ids are left out." }) })
  .meta({ id: "RelationshipList" });

export const publicProfile = z
  .object({
    id: z.string(),
    handle: z.string().nullable(),
    displayName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    avatarThumbhash: z.string().nullable(),
    isPrivate: z.boolean(),
    followersCount: z.number().int(),
    followingCount: z.number().int(),
    view: z.enum(["full", "limited"]).meta({
      description:
        "full: every field. limited: a private profile seen by someone who does not follow it: no bio, banner, favourite teams or joined date (those fields are absent).",
    }),
    bio: z.string().nullable().optional(),
    bannerUrl: z.string().nullable().optional(),
    bannerThumbhash: z.string().nullable().optional(),
    favoriteTeams: z.array(favoriteTeam).optional().meta({ description: "In display order." }),
    joinedAt: isoDateTime.optional(),
    sellerReputation: sellerReputation.optional().meta({ description: "The fan's record as a seller on the marketplace (full view; up to a minute old)." }),
  })
  .meta({ id: "PublicProfile", description: "A fan's public profile." });

const listedUser = {
  id: z.string(),
  handle: z.string().nullable(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
};

export const followUser = z
  .object({ ...listedUser, followedAt: isoDateTime.meta({ description: "When the follow began (the list's order, newest first)." }) })
  .meta({ id: "FollowListUser" });

export const followersPage = z
  .object({ followers: z.array(followUser), nextCursor: z.string().optional().meta({ description: "Present only when more remain." }) })
  .meta({ id: "FollowersPage" });

export const followingPage = z
  .object({ following: z.array(followUser), nextCursor: z.string().optional().meta({ description: "Present only when more remain." }) })
  .meta({ id: "FollowingPage" });

export const followRequest = z
  .object({ ...listedUser, requestedAt: isoDateTime.meta({ description: "When they asked (the list's order, newest first)." }) })
  .meta({ id: "FollowRequest", description: "A fan who asked to follow the caller's private profile." });

export const followRequestPage = z
  .object({ requests: z.array(followRequest), nextCursor: z.string().optional().meta({ description: "Present only when more remain." }) })
  .meta({ id: "FollowRequestPage" });
