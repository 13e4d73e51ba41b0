-- The console's "find anyone" (lib/admin findFans, docs/decisions/0059): a fan by e-mail, exact or by its
-- beginning, case-insensitively. By hand: Prisma cannot declare an expression index. text_pattern_ops serves both
-- `lower(email) = $1` and the range `lower(email) ~>=~ $1 AND lower(email) ~<~ $2` a prefix becomes (a LIKE with a
-- parameter cannot use an index under the generic plans this project runs with).
CREATE INDEX "users_email_lower_idx" ON "users" (lower("email") text_pattern_ops);
