import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { me } from "@/lib/core/users/schemas";
import { getCurrentUser } from "@/lib/core/users/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route({ summary: "The signed-in user", tags: ["Users"], auth: "bearer", response: me }, ({ user }) => getCurrentUser(db, user)),
});
