import { db } from "@/lib/db/client";
import { relationshipList, relationshipsQuery, RELATIONSHIPS_MAX } from "@/lib/core/follows/schemas";
import { relationships } from "@/lib/core/follows/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My relationships with fans",
      description:
        `How the caller stands with each of up to ${RELATIONSHIPS_MAX} users (\`ids\`, comma-separated or repeated; duplicates count once): following, followedBy, requested (a pending request to follow their private profile), blocking, blockedBy, muting (a mute in force; the muted side never sees it). ` +
        "One entry per existing user, in the order asked; unknown ids are left out. More ids, or one that is not a UUID: 400 naming `query.ids`.",
      tags: ["Follows"],
      auth: "bearer",
      query: relationshipsQuery,
      response: relationshipList,
    },
    ({ user, query }) => relationships(db, user.id, query.ids),
  ),
});
