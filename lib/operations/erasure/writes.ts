import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { eraseActorPushesSql, eraseActorSql } from "../../core/notifications/service";

// The erasure's statements, run by eraseAccount (service.ts) in the erasure cron's transaction: the personal data, one
// statement per table (ERASURE_STATEMENTS below: a new table with a user's data adds one line there), the users row
// scrubbed into a tombstone, and the few writes of its marketplace and mint steps.

/** The user's id as a statement's parameter. */
export const userIdSql = (userId: string) => Prisma.sql`${userId}::uuid`;

type Statement = { table: string; sql: (userId: Prisma.Sql) => Prisma.Sql };

/**
 * Every table holding a user's personal data, and what the erasure does to it: one statement each, run in this
 * order (posts before the comment counters, so only other fans' posts are recounted). Tables not listed keep their
 * rows on the tombstone: rep_entries, reward_claims, wallets and wallet_transactions, pack purchases and openings,
 * collectibles and collectible_transfers, listings, bids, offers, nft_mints, leaderboard_winners, game_ratings,
 * reports, posting_suspensions, moderation_actions and moderation_appeals (the record of what staff decided),
 * invites and invite_redemptions.
 */
export const ERASURE_STATEMENTS: Statement[] = [
  // A kill switch paused for listed users (lib/features/config) forgets the user.
  { table: "kill_switches", sql: (u) => Prisma.sql`UPDATE kill_switches SET user_ids = array_remove(user_ids, ${u}) WHERE ${u} = ANY(user_ids)` },
  // The user's posts go with everything on them (other fans' comments, reactions, votes, edits, mutes, reports).
  { table: "posts", sql: (u) => Prisma.sql`DELETE FROM posts WHERE author_id = ${u}` },
  // Other fans' posts whose counters move, locked in id order as the comment, reaction and poll services lock them.
  {
    table: "posts (locks)",
    sql: (u) => Prisma.sql`SELECT 1 FROM posts WHERE id IN (
        SELECT post_id FROM post_comments WHERE author_id = ${u} UNION SELECT post_id FROM post_reactions WHERE user_id = ${u}
        UNION SELECT post_id FROM poll_voters WHERE user_id = ${u} UNION SELECT post_id FROM post_reposts WHERE user_id = ${u}) ORDER BY id FOR UPDATE`,
  },
  // Comments: soft-deleted as a fan's own delete does (a removed comment with replies stays as a placeholder),
  // content emptied; the counters of the post and of the parent move back for each one that was counted.
  {
    table: "posts.comment_count",
    sql: (u) => Prisma.sql`UPDATE posts p SET comment_count = p.comment_count - c.n
      FROM (SELECT post_id, count(*)::int AS n FROM post_comments WHERE author_id = ${u} AND deleted_at IS NULL AND hidden_at IS NULL GROUP BY post_id) c
      WHERE p.id = c.post_id`,
  },
  {
    table: "post_comments.reply_count",
    sql: (u) => Prisma.sql`UPDATE post_comments pc SET reply_count = pc.reply_count - c.n
      FROM (SELECT parent_id, count(*)::int AS n FROM post_comments
            WHERE author_id = ${u} AND parent_id IS NOT NULL AND deleted_at IS NULL AND hidden_at IS NULL GROUP BY parent_id) c
      WHERE pc.id = c.parent_id`,
  },
  // Tags and mentions of the comments (their text goes next); the posts' went with the posts.
  { table: "comment_tags", sql: (u) => Prisma.sql`DELETE FROM comment_tags WHERE author_id = ${u}` },
  {
    table: "comment_mentions (made)",
    sql: (u) => Prisma.sql`DELETE FROM comment_mentions WHERE comment_id IN (SELECT id FROM post_comments WHERE author_id = ${u})`,
  },
  { table: "post_comments", sql: (u) => Prisma.sql`UPDATE post_comments SET content = '', deleted_at = coalesce(deleted_at, now()) WHERE author_id = ${u}` },
  // Reactions: one per post, taken off the post's counts (a kind at zero dropped, as lib/features/reactions does).
  {
    table: "posts.reaction_counts",
    sql: (u) => Prisma.sql`UPDATE posts p SET reaction_counts = (
        SELECT COALESCE(jsonb_object_agg(k, n), '{}') FROM (
          SELECT key AS k, value::int - (key = r.kind)::int AS n FROM jsonb_each_text(p.reaction_counts)) d WHERE n > 0)
      FROM post_reactions r WHERE r.post_id = p.id AND r.user_id = ${u}`,
  },
  { table: "post_reactions", sql: (u) => Prisma.sql`DELETE FROM post_reactions WHERE user_id = ${u}` },
  // Poll votes: one per poll, taken off its counts.
  {
    table: "post_polls",
    sql: (u) => Prisma.sql`UPDATE post_polls pp SET voters_count = pp.voters_count - 1,
        vote_counts = ARRAY(SELECT c - (i - 1 = ANY(v.choices))::int FROM unnest(pp.vote_counts) WITH ORDINALITY AS x(c, i) ORDER BY i)
      FROM poll_voters v WHERE v.post_id = pp.post_id AND v.user_id = ${u}`,
  },
  { table: "poll_voters", sql: (u) => Prisma.sql`DELETE FROM poll_voters WHERE user_id = ${u}` },
  { table: "post_mutes", sql: (u) => Prisma.sql`DELETE FROM post_mutes WHERE user_id = ${u}` },
  { table: "bookmarks", sql: (u) => Prisma.sql`DELETE FROM bookmarks WHERE user_id = ${u}` },
  // Reposts: taken off the posts' counts; pins (their own posts' went with the posts).
  {
    table: "posts.repost_count",
    sql: (u) => Prisma.sql`UPDATE posts p SET repost_count = p.repost_count - 1 FROM post_reposts r WHERE r.post_id = p.id AND r.user_id = ${u}`,
  },
  { table: "post_reposts", sql: (u) => Prisma.sql`DELETE FROM post_reposts WHERE user_id = ${u}` },
  { table: "post_pins", sql: (u) => Prisma.sql`DELETE FROM post_pins WHERE user_id = ${u}` },
  { table: "tag_follows", sql: (u) => Prisma.sql`DELETE FROM tag_follows WHERE user_id = ${u}` },
  { table: "post_mentions", sql: (u) => Prisma.sql`DELETE FROM post_mentions WHERE user_id = ${u}` },
  { table: "comment_mentions", sql: (u) => Prisma.sql`DELETE FROM comment_mentions WHERE user_id = ${u}` },
  { table: "notifications", sql: (u) => Prisma.sql`DELETE FROM notifications WHERE user_id = ${u}` },
  // What they caused in other fans' inboxes: their name and avatar gone, their text emptied (one UPDATE by actor_id),
  // and so in the push deliveries' copies.
  { table: "notifications (caused)", sql: eraseActorSql },
  { table: "push_deliveries (caused)", sql: eraseActorPushesSql },
  { table: "devices", sql: (u) => Prisma.sql`DELETE FROM devices WHERE user_id = ${u}` },
  { table: "feed_signal_batches", sql: (u) => Prisma.sql`DELETE FROM feed_signal_batches WHERE user_id = ${u}` },
  { table: "feed_snapshots", sql: (u) => Prisma.sql`DELETE FROM feed_snapshots WHERE user_id = ${u}` },
  { table: "starred_teams", sql: (u) => Prisma.sql`DELETE FROM starred_teams WHERE user_id = ${u}` },
  { table: "team_follows", sql: (u) => Prisma.sql`DELETE FROM team_follows WHERE user_id = ${u}` },
  { table: "team_members", sql: (u) => Prisma.sql`DELETE FROM team_members WHERE user_id = ${u}` },
  { table: "team_staff", sql: (u) => Prisma.sql`DELETE FROM team_staff WHERE user_id = ${u}` },
  { table: "favorite_teams", sql: (u) => Prisma.sql`DELETE FROM favorite_teams WHERE user_id = ${u}` },
  { table: "user_blocks", sql: (u) => Prisma.sql`DELETE FROM user_blocks WHERE blocker_id = ${u} OR blocked_id = ${u}` },
  { table: "mobile_session_tokens", sql: (u) => Prisma.sql`DELETE FROM mobile_session_tokens WHERE user_id = ${u}` },
  { table: "support_messages", sql: (u) => Prisma.sql`DELETE FROM support_messages WHERE author_id = ${u}` },
  { table: "support_tickets", sql: (u) => Prisma.sql`DELETE FROM support_tickets WHERE user_id = ${u}` },
  { table: "binders", sql: (u) => Prisma.sql`DELETE FROM binders WHERE user_id = ${u}` },
  // The stored files were collected first (uploadedFiles) and are deleted after the commit.
  { table: "media_uploads", sql: (u) => Prisma.sql`DELETE FROM media_uploads WHERE user_id = ${u}` },
  { table: "direct_uploads", sql: (u) => Prisma.sql`DELETE FROM direct_uploads WHERE user_id = ${u}` },
  { table: "idempotency_keys", sql: (u) => Prisma.sql`DELETE FROM idempotency_keys WHERE user_id = ${u}` },
  { table: "cart_items", sql: (u) => Prisma.sql`DELETE FROM cart_items WHERE user_id = ${u}` },
  { table: "wishlist_items", sql: (u) => Prisma.sql`DELETE FROM wishlist_items WHERE user_id = ${u}` },
  { table: "price_alerts", sql: (u) => Prisma.sql`DELETE FROM price_alerts WHERE user_id = ${u}` },
  { table: "quest_progress", sql: (u) => Prisma.sql`DELETE FROM quest_progress WHERE user_id = ${u}` },
  { table: "quest_step_progress", sql: (u) => Prisma.sql`DELETE FROM quest_step_progress WHERE user_id = ${u}` },
  { table: "quiz_sessions", sql: (u) => Prisma.sql`DELETE FROM quiz_sessions WHERE user_id = ${u}` },
  { table: "guess_sessions", sql: (u) => Prisma.sql`DELETE FROM guess_sessions WHERE user_id = ${u}` },
  { table: "arena_check_ins", sql: (u) => Prisma.sql`DELETE FROM arena_check_ins WHERE user_id = ${u}` },
  { table: "user_passes", sql: (u) => Prisma.sql`DELETE FROM user_passes WHERE user_id = ${u}` },
  { table: "user_streaks", sql: (u) => Prisma.sql`DELETE FROM user_streaks WHERE user_id = ${u}` },
  // Progress (lib/features/progress): freezes, season peaks, badges and the featured ones.
  { table: "streak_freezes", sql: (u) => Prisma.sql`DELETE FROM streak_freezes WHERE user_id = ${u}` },
  { table: "user_season_peaks", sql: (u) => Prisma.sql`DELETE FROM user_season_peaks WHERE user_id = ${u}` },
  { table: "featured_badges", sql: (u) => Prisma.sql`DELETE FROM featured_badges WHERE user_id = ${u}` },
  { table: "badge_grants", sql: (u) => Prisma.sql`DELETE FROM badge_grants WHERE user_id = ${u}` },
  // Private leagues (lib/features/predictions): an owned league passes to its earliest other member (or goes, when it has
  // none), and the user leaves every league, its member count moving back. Predictions stay on the tombstone.
  {
    table: "private_leagues.owner_id",
    sql: (u) => Prisma.sql`UPDATE private_leagues l SET owner_id = next.user_id
      FROM (SELECT DISTINCT ON (m.league_id) m.league_id, m.user_id FROM private_league_members m
            JOIN private_leagues ol ON ol.id = m.league_id AND ol.owner_id = ${u}
            WHERE m.user_id <> ${u} ORDER BY m.league_id, m.joined_at, m.user_id) next
      WHERE l.id = next.league_id`,
  },
  { table: "private_leagues", sql: (u) => Prisma.sql`DELETE FROM private_leagues WHERE owner_id = ${u}` },
  {
    table: "private_leagues.member_count",
    sql: (u) => Prisma.sql`UPDATE private_leagues SET member_count = member_count - 1
      WHERE id IN (SELECT league_id FROM private_league_members WHERE user_id = ${u})`,
  },
  { table: "private_league_members", sql: (u) => Prisma.sql`DELETE FROM private_league_members WHERE user_id = ${u}` },
  // Follows both ways (the trigger on user_follows moves the other fans' counts), requests both ways.
  { table: "user_follows", sql: (u) => Prisma.sql`DELETE FROM user_follows WHERE follower_id = ${u} OR followee_id = ${u}` },
  { table: "follow_requests", sql: (u) => Prisma.sql`DELETE FROM follow_requests WHERE requester_id = ${u} OR target_id = ${u}` },
  { table: "user_mutes", sql: (u) => Prisma.sql`DELETE FROM user_mutes WHERE muter_id = ${u} OR muted_id = ${u}` },
  { table: "keyword_filters", sql: (u) => Prisma.sql`DELETE FROM keyword_filters WHERE user_id = ${u}` },
  { table: "spending_limits", sql: (u) => Prisma.sql`DELETE FROM spending_limits WHERE user_id = ${u}` },
  // Trades stay on the tombstone (the record of what changed hands); the notes the user wrote go, and their offer settings.
  { table: "trades.message", sql: (u) => Prisma.sql`UPDATE trades SET message = NULL WHERE proposer_id = ${u}` },
  { table: "offer_minimums", sql: (u) => Prisma.sql`DELETE FROM offer_minimums WHERE user_id = ${u}` },
  { table: "trade_refusals", sql: (u) => Prisma.sql`DELETE FROM trade_refusals WHERE user_id = ${u} OR refused_id = ${u}` },
  // Their zips were collected with the uploads (uploadedFiles) and are deleted after the commit.
  { table: "data_exports", sql: (u) => Prisma.sql`DELETE FROM data_exports WHERE user_id = ${u}` },
  // Push: the outbox (and its deliveries, by cascade), preferences and quiet hours.
  { table: "push_outbox", sql: (u) => Prisma.sql`DELETE FROM push_outbox WHERE user_id = ${u}` },
  { table: "notification_preferences", sql: (u) => Prisma.sql`DELETE FROM notification_preferences WHERE user_id = ${u}` },
  { table: "push_quiet_hours", sql: (u) => Prisma.sql`DELETE FROM push_quiet_hours WHERE user_id = ${u}` },
  { table: "announcement_dismissals", sql: (u) => Prisma.sql`DELETE FROM announcement_dismissals WHERE user_id = ${u}` },
  // Physical rewards: the fan's shipping address, and its copy on their reward claims (the claims stay as records).
  { table: "shipping_addresses", sql: (u) => Prisma.sql`DELETE FROM shipping_addresses WHERE user_id = ${u}` },
  {
    table: "reward_claims (shipping address)",
    sql: (u) => Prisma.sql`UPDATE reward_claims SET shipping_address = NULL WHERE user_id = ${u} AND shipping_address IS NOT NULL`,
  },
];

/** The users row as a tombstone: the id, handle_key, external_id, created_at and the Rep totals stay; nothing personal. */
const TOMBSTONE = (u: Prisma.Sql) => Prisma.sql`
  UPDATE users SET handle = NULL, display_name = NULL, email = NULL, bio = NULL, avatar_url = NULL, avatar_key = NULL,
         avatar_thumbhash = NULL, banner_url = NULL, banner_key = NULL, banner_thumbhash = NULL, is_private = true,
         notify_teams = false, notify_milestones = false, notify_community = false, analytics_personalization = false, country = NULL, timezone = NULL, timezone_changed_at = NULL,
         ugc_terms_version = NULL, ugc_terms_accepted_at = NULL, idp_synced_at = NULL, nft_wallet_address = NULL,
         nft_wallet_linked_at = NULL, updated_at = now()
  WHERE id = ${u}
  RETURNING external_id AS "externalId"`;

/** Step 4: every table's statement of ERASURE_STATEMENTS, in order. */
export async function eraseRows(tx: DbTx, userId: string): Promise<void> {
  const u = userIdSql(userId);
  for (const s of ERASURE_STATEMENTS) await tx.$executeRaw(s.sql(u));
}

/** Step 5: the users row as a tombstone (TOMBSTONE), answering the identity-provider subject it keeps. */
export async function tombstoneUser(tx: DbTx, userId: string): Promise<string> {
  const [row] = await tx.$queryRaw<{ externalId: string }[]>(TOMBSTONE(userIdSql(userId)));
  return row!.externalId;
}

/**
 * The auction `listingId` runs on as if it had no bid: its leading bid and bidder cleared, its price back to the start
 * (the caller refunded the bid). Belongs with lib/features/marketplace's statements.
 */
export async function clearLeadingBid(tx: DbTx, listingId: string): Promise<void> {
  await tx.$executeRaw`
      UPDATE listings SET top_bid_id = NULL, top_bidder_id = NULL, price = starting_price, bid_count = 0 WHERE id = ${listingId}::uuid AND status = 'active'`;
}

/** The user's pending mints fail (their items free again). */
export async function failPendingMints(tx: DbTx, userId: string): Promise<void> {
  const u = userIdSql(userId);
  await tx.$executeRaw`
      UPDATE nft_mints SET status = 'failed', mint_key = NULL, last_error = 'The account was deleted.' WHERE user_id = ${u} AND status = 'pending'`;
}
