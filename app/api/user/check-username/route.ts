import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { checkUsernameQuery, usernameAvailability } from "@/lib/core/users/schemas";
import { isUsernameAvailable } from "@/lib/core/users/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Is a display handle free?",
      description:
        "Case-insensitive. Reserved handles are never available: staff-like words compared after folding look-alike digits, underscores and trailing digits (admin_, support1, 0fficial), as PATCH /api/user/profile refuses them. A malformed handle is a 400.",
      tags: ["Users"],
      auth: "public",
      query: checkUsernameQuery,
      rateLimit: "public",
      envelope: false,
      response: usernameAvailability,
    },
    ({ query }) => isUsernameAvailable(db, query.username),
  ),
});
