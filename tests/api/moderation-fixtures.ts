import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { api, db, newUser, userIdOf } from "../helpers";

// What the moderation tests share (moderation.test.ts, moderation-staff.test.ts): a signed-in user with a handle,
// posts and comments inserted directly (their create routes live in other modules), and the two report routes.

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export type Auth = Record<string, string>;

export async function signedIn(opts: { admin?: boolean } = {}) {
  const u = newUser(opts);
  expect((await api("GET", "/api/user", { headers: u.auth })).status).toBe(200);
  const id = await userIdOf(u.sub);
  const handle = `mod_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  await db().user.update({ where: { id }, data: { handle, handleKey: handle.toLowerCase(), displayName: "Mod Test" } });
  return { ...u, id, handle };
}

export const post = (authorId: string, data: Record<string, unknown> = {}) =>
  db().post.create({ data: { authorId, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000), ...data } });
export const comment = (postId: string, authorId: string, data: Record<string, unknown> = {}) =>
  db().postComment.create({ data: { postId, authorId, content: `comment ${randomUUID()}`, ...data } });

export const reportPost = (auth: Auth, postId: string, json: unknown) => api("POST", `/api/locker-room/${postId}/report`, { headers: auth, json });
export const reportComment = (auth: Auth, postId: string, commentId: string, json: unknown) =>
  api("POST", `/api/locker-room/${postId}/comments/${commentId}/report`, { headers: auth, json });
