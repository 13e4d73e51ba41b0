import { Prisma } from "../../generated/prisma/client";
import type { Db } from "../../db/client";
import { readablePayloadSql } from "../../core/notifications/service";

// What a data export holds: one JSON document per area, every one read in ONE transaction, REPEATABLE READ and
// READ ONLY, so all of them show the database at one instant (the ledgers agree with the balances beside them, a
// sale shows on both the wallet ledger and the listing). Each area is one statement that builds its JSON in SQL.
//
// Only the user's own data: their rows, and of other users no more than the app shows them (a counterparty's
// handle, never an e-mail or other profile field). Never other users' posts or comments (a comment of the user's
// on someone's post carries only the post's id), staff identities, moderation notes or resolutions, report
// outcomes, secrets (push tokens, session tokens, upload grants, idempotency keys and request hashes).
// Column lists are spelled out rather than `to_jsonb(row)`, so a column added later is not exported unseen.

/** A user's handle as other users see it (null for a user without one). */
const handleOf = (idColumn: Prisma.Sql) => Prisma.sql`(SELECT h.handle FROM users h WHERE h.id = ${idColumn})`;

const areas = (u: string): [file: string, sql: Prisma.Sql][] => [
  [
    "profile.json",
    Prisma.sql`
      SELECT json_build_object(
        'id', u.id, 'handle', u.handle, 'displayName', u.display_name, 'email', u.email, 'bio', u.bio,
        'avatarUrl', u.avatar_url, 'bannerUrl', u.banner_url, 'identityProviderId', u.external_id,
        'createdAt', u.created_at, 'updatedAt', u.updated_at, 'onboardedAt', u.onboarded_at,
        'nftWallet', json_build_object('address', u.nft_wallet_address, 'linkedAt', u.nft_wallet_linked_at),
        'questPoints', u.quest_points,
        'favoriteTeams', (SELECT coalesce(json_agg(json_build_object('teamId', f.team_id, 'position', f.position, 'addedAt', f.created_at) ORDER BY f.position), '[]')
                          FROM favorite_teams f WHERE f.user_id = u.id),
        'streak', (SELECT json_build_object('current', s.current, 'longest', s.longest, 'lastDay', s.last_day) FROM user_streaks s WHERE s.user_id = u.id),
        'leaderboardWins', (SELECT coalesce(json_agg(json_build_object('seasonId', w.season_id, 'board', w.board, 'rank', w.rank, 'points', w.points, 'reachedAt', w.reached_at)
                              ORDER BY w.season_id, w.board), '[]') FROM leaderboard_winners w WHERE w.user_id = u.id)
      ) AS v FROM users u WHERE u.id = ${u}::uuid`,
  ],
  [
    "settings.json",
    Prisma.sql`
      SELECT json_build_object(
        'privateProfile', u.is_private,
        'notifications', json_build_object('teams', u.notify_teams, 'milestones', u.notify_milestones, 'community', u.notify_community),
        'analyticsPersonalization', u.analytics_personalization,
        'timezone', u.timezone,
        'ugcTerms', json_build_object('version', u.ugc_terms_version, 'acceptedAt', u.ugc_terms_accepted_at),
        'blockedUsers', (SELECT coalesce(json_agg(json_build_object('userId', b.blocked_id, 'handle', ${handleOf(Prisma.sql`b.blocked_id`)}, 'blockedAt', b.created_at)
                           ORDER BY b.created_at), '[]') FROM user_blocks b WHERE b.blocker_id = u.id),
        'mutedPosts', (SELECT coalesce(json_agg(json_build_object('postId', m.post_id, 'mutedAt', m.created_at) ORDER BY m.created_at), '[]')
                       FROM post_mutes m WHERE m.user_id = u.id),
        'pushDevices', (SELECT coalesce(json_agg(json_build_object('id', d.id, 'provider', d.provider, 'platform', d.platform, 'appVersion', d.app_version,
                          'locale', d.locale, 'timezone', d.timezone, 'createdAt', d.created_at) ORDER BY d.id), '[]') FROM devices d WHERE d.user_id = u.id),
        'mutedUsers', (SELECT coalesce(json_agg(json_build_object('userId', m.muted_id, 'handle', ${handleOf(Prisma.sql`m.muted_id`)}, 'notifications', m.notifications,
                         'expiresAt', m.expires_at, 'mutedAt', m.created_at) ORDER BY m.created_at, m.muted_id), '[]') FROM user_mutes m WHERE m.muter_id = u.id),
        'keywordFilters', (SELECT coalesce(json_agg(json_build_object('id', f.id, 'title', f.title, 'keywords', f.keywords, 'contexts', f.contexts,
                             'expiresAt', f.expires_at, 'createdAt', f.created_at) ORDER BY f.id), '[]') FROM keyword_filters f WHERE f.user_id = u.id),
        'notificationPreferences', (SELECT coalesce(json_agg(json_build_object('type', p.type, 'inApp', p.in_app, 'push', p.push) ORDER BY p.type), '[]')
                                    FROM notification_preferences p WHERE p.user_id = u.id),
        'quietHours', (SELECT json_build_object('start', q.start_minute, 'end', q.end_minute, 'timeZone', q.time_zone) FROM push_quiet_hours q WHERE q.user_id = u.id)
      ) AS v FROM users u WHERE u.id = ${u}::uuid`,
  ],
  [
    "teams.json",
    Prisma.sql`
      SELECT json_build_object(
        'followed', (SELECT coalesce(json_agg(json_build_object('teamId', f.team_id, 'name', t.name, 'followedAt', f.created_at) ORDER BY f.created_at, f.team_id), '[]')
                     FROM team_follows f JOIN teams t ON t.id = f.team_id WHERE f.user_id = ${u}::uuid),
        'joined', (SELECT coalesce(json_agg(json_build_object('teamId', m.team_id, 'name', t.name, 'points', m.points, 'joinedAt', m.created_at) ORDER BY m.created_at, m.team_id), '[]')
                   FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = ${u}::uuid),
        'starred', (SELECT coalesce(json_agg(json_build_object('teamId', s.team_id, 'name', s.name, 'slug', s.slug, 'starredAt', s.starred_at) ORDER BY s.starred_at, s.team_id), '[]')
                    FROM starred_teams s WHERE s.user_id = ${u}::uuid),
        'staffOf', (SELECT coalesce(json_agg(json_build_object('teamId', s.team_id, 'since', s.created_at) ORDER BY s.team_id), '[]') FROM team_staff s WHERE s.user_id = ${u}::uuid)
      ) AS v`,
  ],
  [
    "posts.json",
    Prisma.sql`
      SELECT coalesce(json_agg(json_build_object(
        'id', p.id, 'content', p.content, 'visibility', p.visibility, 'teamId', p.team_id, 'postedAsTeamId', p.author_team_id,
        'imageUrl', p.image_url, 'media', p.media, 'collectible', p.collectible, 'lineup', p.lineup,
        'createdAt', p.created_at, 'publishAt', p.publish_at, 'scheduled', p.scheduled, 'editedAt', p.edited_at, 'deletedAt', p.deleted_at,
        'hiddenByModeration', p.hidden_at IS NOT NULL, 'commentCount', p.comment_count, 'reactionCounts', p.reaction_counts,
        'commentPolicy', lower(p.comment_policy::text), 'quotedPostId', p.quoted_post_id, 'quoteDetachedAt', p.quote_detached_at,
        'repostCount', p.repost_count, 'quoteCount', p.quote_count, 'pinnedAt', (SELECT pn.created_at FROM post_pins pn WHERE pn.post_id = p.id AND pn.user_id = p.author_id),
        'earlierVersions', (SELECT coalesce(json_agg(json_build_object('content', e.content, 'replacedAt', e.edited_at) ORDER BY e.id), '[]') FROM post_edits e WHERE e.post_id = p.id),
        'poll', (SELECT json_build_object('options', pl.options, 'multiple', pl.multiple, 'closesAt', pl.closes_at, 'voteCounts', pl.vote_counts, 'voters', pl.voters_count)
                 FROM post_polls pl WHERE pl.post_id = p.id)
      ) ORDER BY p.publish_at, p.id), '[]') AS v
      FROM posts p WHERE p.author_id = ${u}::uuid`,
  ],
  [
    "comments.json",
    Prisma.sql`
      SELECT json_build_object(
        'comments', (SELECT coalesce(json_agg(json_build_object('id', c.id, 'postId', c.post_id, 'replyTo', c.parent_id, 'content', c.content, 'createdAt', c.created_at,
                       'deletedAt', c.deleted_at, 'hiddenByModeration', c.hidden_at IS NOT NULL, 'replyCount', c.reply_count) ORDER BY c.id), '[]')
                     FROM post_comments c WHERE c.author_id = ${u}::uuid),
        'reactions', (SELECT coalesce(json_agg(json_build_object('postId', r.post_id, 'kind', r.kind, 'createdAt', r.created_at) ORDER BY r.created_at, r.post_id), '[]')
                      FROM post_reactions r WHERE r.user_id = ${u}::uuid),
        'pollVotes', (SELECT coalesce(json_agg(json_build_object('postId', v.post_id, 'choices', v.choices, 'createdAt', v.created_at) ORDER BY v.created_at, v.post_id), '[]')
                      FROM poll_voters v WHERE v.user_id = ${u}::uuid),
        'bookmarks', (SELECT coalesce(json_agg(json_build_object('postId', b.post_id, 'bookmarkedAt', b.created_at) ORDER BY b.created_at, b.post_id), '[]')
                      FROM bookmarks b WHERE b.user_id = ${u}::uuid),
        'reposts', (SELECT coalesce(json_agg(json_build_object('postId', r.post_id, 'repostedAt', r.created_at) ORDER BY r.created_at, r.post_id), '[]')
                    FROM post_reposts r WHERE r.user_id = ${u}::uuid),
        'followedTags', (SELECT coalesce(json_agg(json_build_object('tag', f.tag, 'followedAt', f.created_at) ORDER BY f.created_at, f.tag), '[]')
                         FROM tag_follows f WHERE f.user_id = ${u}::uuid)
      ) AS v`,
  ],
  [
    "rep-ledger.json",
    Prisma.sql`
      SELECT json_build_object(
        'balance', u.rep_balance, 'spent', u.rep_spent,
        'earned', json_build_object('club', u.rep_earned_club, 'fanAmp', u.rep_earned_fan_amp, 'playerAmp', u.rep_earned_player_amp, 'serviceDirect', u.rep_earned_service_direct),
        'entries', (SELECT coalesce(json_agg(json_build_object('id', r.id, 'source', r.source, 'amount', r.amount, 'reason', r.reason, 'kind', r.earn_kind,
                      'targetId', r.target_id, 'createdAt', r.created_at) ORDER BY r.created_at, r.id), '[]')
                    FROM rep_entries r WHERE r.user_id = u.id)
      ) AS v FROM users u WHERE u.id = ${u}::uuid`,
  ],
  [
    "wallet-ledger.json",
    Prisma.sql`
      SELECT json_build_object('wallets', coalesce(json_agg(json_build_object(
        'currency', w.currency, 'balance', w.balance, 'debt', w.debt, 'updatedAt', w.updated_at,
        'transactions', (SELECT coalesce(json_agg(json_build_object('id', t.id, 'amount', t.amount, 'balanceAfter', t.balance_after, 'reason', t.reason,
                           'referenceType', t.reference_type, 'referenceId', t.reference_id, 'note', t.note, 'createdAt', t.created_at) ORDER BY t.id), '[]')
                         FROM wallet_transactions t WHERE t.user_id = w.user_id AND t.currency = w.currency)
      ) ORDER BY w.currency), '[]'),
        'coinPurchases', (SELECT coalesce(json_agg(json_build_object('id', p.id, 'provider', p.provider, 'providerTransactionId', p.provider_txn_id,
                            'productId', p.product_id, 'coins', p.coins, 'amount', p.amount, 'currency', p.currency, 'state', p.state,
                            'refundedAmount', p.refunded_amount, 'disputedAmount', p.disputed_amount, 'clawedCoins', p.clawed_coins,
                            'createdAt', p.created_at, 'creditedAt', p.credited_at) ORDER BY p.id), '[]')
                          FROM coin_purchases p WHERE p.user_id = ${u}::uuid)) AS v
      FROM wallets w WHERE w.user_id = ${u}::uuid`,
  ],
  [
    "collectibles.json",
    Prisma.sql`
      SELECT json_build_object(
        'owned', (SELECT coalesce(json_agg(json_build_object(
                    'id', c.id, 'cardId', c.card_id, 'card', cc.name, 'rarity', cc.rarity, 'serial', c.serial, 'acquiredAt', c.acquired_at,
                    'fromPackPurchase', c.purchase_id,
                    'ownerHistory', (SELECT coalesce(json_agg(json_build_object('from', ${handleOf(Prisma.sql`x.from_user_id`)}, 'to', ${handleOf(Prisma.sql`x.to_user_id`)},
                                       'reason', x.reason, 'price', x.price, 'at', x.created_at) ORDER BY x.id), '[]')
                                     FROM collectible_transfers x WHERE x.collectible_id = c.id)
                  ) ORDER BY c.id), '[]')
                  FROM collectibles c JOIN collectible_cards cc ON cc.id = c.card_id WHERE c.owner_id = ${u}::uuid),
        'binders', (SELECT coalesce(json_agg(json_build_object('id', b.id, 'name', b.name, 'public', b.is_public, 'position', b.position, 'coverUrl', b.cover_url,
                      'createdAt', b.created_at, 'items', (SELECT coalesce(json_agg(json_build_object('collectibleId', i.collectible_id, 'position', i.position, 'addedAt', i.added_at)
                        ORDER BY i.position), '[]') FROM binder_items i WHERE i.binder_id = b.id)) ORDER BY b.position, b.id), '[]')
                    FROM binders b WHERE b.user_id = ${u}::uuid),
        'packPurchases', (SELECT coalesce(json_agg(json_build_object('id', p.id, 'packId', p.pack_id, 'source', p.source, 'price', p.price, 'currency', p.currency,
                            'createdAt', p.created_at, 'openedAt', p.opened_at) ORDER BY p.id), '[]') FROM pack_purchases p WHERE p.user_id = ${u}::uuid),
        'nftMints', (SELECT coalesce(json_agg(json_build_object('id', n.id, 'itemType', n.item_type, 'itemId', n.item_id, 'name', n.name, 'status', n.status,
                       'walletAddress', n.wallet_address, 'txHash', n.tx_hash, 'tokenId', n.token_id, 'createdAt', n.created_at, 'mintedAt', n.minted_at) ORDER BY n.id), '[]')
                     FROM nft_mints n WHERE n.user_id = ${u}::uuid)
      ) AS v`,
  ],
  [
    "listings.json",
    Prisma.sql`
      SELECT json_build_object(
        'listings', (SELECT coalesce(json_agg(json_build_object('id', l.id, 'collectibleId', l.collectible_id, 'cardId', l.card_id, 'kind', l.kind, 'status', l.status,
                       'currency', l.currency, 'price', l.price, 'startingPrice', l.starting_price, 'reservePrice', l.reserve_price, 'minIncrement', l.min_increment,
                       'endsAt', l.ends_at, 'bidCount', l.bid_count, 'buyer', ${handleOf(Prisma.sql`l.buyer_id`)}, 'salePrice', l.sale_price, 'fee', l.fee,
                       'createdAt', l.created_at, 'closedAt', l.closed_at, 'refundedAt', l.refunded_at) ORDER BY l.id), '[]')
                     FROM listings l WHERE l.seller_id = ${u}::uuid),
        'bids', (SELECT coalesce(json_agg(json_build_object('id', b.id, 'listingId', b.listing_id, 'amount', b.amount, 'maxAmount', b.max_amount, 'releasedAt', b.released_at, 'createdAt', b.created_at)
                   ORDER BY b.id), '[]') FROM bids b WHERE b.bidder_id = ${u}::uuid)
      ) AS v`,
  ],
  [
    "orders.json",
    Prisma.sql`
      SELECT json_build_object(
        'purchases', (SELECT coalesce(json_agg(json_build_object('listingId', l.id, 'collectibleId', l.collectible_id, 'cardId', l.card_id, 'kind', l.kind,
                        'seller', ${handleOf(Prisma.sql`l.seller_id`)}, 'price', l.sale_price, 'currency', l.currency, 'boughtAt', l.closed_at, 'refundedAt', l.refunded_at)
                        ORDER BY l.id), '[]') FROM listings l WHERE l.buyer_id = ${u}::uuid),
        'offersMade', (SELECT coalesce(json_agg(json_build_object('id', o.id, 'collectibleId', o.collectible_id, 'amount', o.amount, 'currency', o.currency, 'status', o.status,
                         'expiresAt', o.expires_at, 'createdAt', o.created_at, 'closedAt', o.closed_at) ORDER BY o.id), '[]') FROM offers o WHERE o.buyer_id = ${u}::uuid),
        'cart', (SELECT coalesce(json_agg(json_build_object('listingId', c.listing_id, 'price', c.price, 'addedAt', c.added_at) ORDER BY c.added_at, c.listing_id), '[]')
                 FROM cart_items c WHERE c.user_id = ${u}::uuid),
        'wishlist', (SELECT coalesce(json_agg(json_build_object('itemType', w.item_type, 'itemId', w.item_id, 'listingId', w.listing_id, 'addedAt', w.created_at) ORDER BY w.id), '[]')
                     FROM wishlist_items w WHERE w.user_id = ${u}::uuid),
        'priceAlerts', (SELECT coalesce(json_agg(json_build_object('cardId', a.card_id, 'serialMin', a.serial_min, 'serialMax', a.serial_max, 'maxPrice', a.max_price,
                          'createdAt', a.created_at) ORDER BY a.id), '[]')
                        FROM price_alerts a WHERE a.user_id = ${u}::uuid),
        'trades', (SELECT coalesce(json_agg(json_build_object('id', t.id, 'role', CASE WHEN t.proposer_id = ${u}::uuid THEN 'proposer' ELSE 'recipient' END,
                     'proposer', ${handleOf(Prisma.sql`t.proposer_id`)}, 'recipient', ${handleOf(Prisma.sql`t.recipient_id`)},
                     'offeredItems', (SELECT coalesce(json_agg(i.collectible_id ORDER BY i.collectible_id), '[]') FROM trade_items i WHERE i.trade_id = t.id AND i.side = 'offered'),
                     'askedItems', (SELECT coalesce(json_agg(i.collectible_id ORDER BY i.collectible_id), '[]') FROM trade_items i WHERE i.trade_id = t.id AND i.side = 'asked'),
                     'offerCoins', t.offer_coins, 'askCoins', t.ask_coins, 'gift', t.gift, 'message', CASE WHEN t.proposer_id = ${u}::uuid THEN t.message END,
                     'status', t.status, 'voidReason', t.void_reason, 'expiresAt', t.expires_at, 'createdAt', t.created_at, 'closedAt', t.closed_at) ORDER BY t.id), '[]')
                   FROM trades t WHERE t.proposer_id = ${u}::uuid OR t.recipient_id = ${u}::uuid),
        'offerSettings', json_build_object(
          'minimumOffers', (SELECT coalesce(json_agg(json_build_object('cardId', m.card_id, 'amount', m.amount) ORDER BY m.card_id), '[]') FROM offer_minimums m WHERE m.user_id = ${u}::uuid),
          'refusedUsers', (SELECT coalesce(json_agg(json_build_object('userId', r.refused_id, 'handle', ${handleOf(Prisma.sql`r.refused_id`)}) ORDER BY r.refused_id), '[]')
                           FROM trade_refusals r WHERE r.user_id = ${u}::uuid)),
        'rewardClaims', (SELECT coalesce(json_agg(json_build_object('id', r.id, 'rewardId', r.reward_id, 'kind', r.kind, 'costRep', r.cost_rep, 'claimedAt', r.claimed_at,
                           'fulfilmentStatus', r.fulfilment_status, 'voucherCode', (SELECT v.code FROM reward_voucher_codes v WHERE v.claim_id = r.id),
                           'trackingCode', r.tracking_code, 'shippingAddress', r.shipping_address, 'refundedAt', r.refunded_at)
                           ORDER BY r.claimed_at, r.id), '[]') FROM reward_claims r WHERE r.user_id = ${u}::uuid),
        'shippingAddress', (SELECT json_build_object('name', s.name, 'line1', s.line1, 'line2', s.line2, 'city', s.city, 'region', s.region,
                              'postalCode', s.postal_code, 'country', s.country, 'phone', s.phone, 'updatedAt', s.updated_at)
                            FROM shipping_addresses s WHERE s.user_id = ${u}::uuid)
      ) AS v`,
  ],
  [
    "follows.json",
    // Fans the user follows and who follow them, and pending requests both ways: handles only, as profiles show them.
    Prisma.sql`
      SELECT json_build_object(
        'following', (SELECT coalesce(json_agg(json_build_object('userId', f.followee_id, 'handle', ${handleOf(Prisma.sql`f.followee_id`)}, 'since', f.created_at)
                        ORDER BY f.created_at, f.followee_id), '[]') FROM user_follows f WHERE f.follower_id = ${u}::uuid),
        'followers', (SELECT coalesce(json_agg(json_build_object('userId', f.follower_id, 'handle', ${handleOf(Prisma.sql`f.follower_id`)}, 'since', f.created_at)
                        ORDER BY f.created_at, f.follower_id), '[]') FROM user_follows f WHERE f.followee_id = ${u}::uuid),
        'requestsSent', (SELECT coalesce(json_agg(json_build_object('userId', r.target_id, 'handle', ${handleOf(Prisma.sql`r.target_id`)}, 'at', r.created_at)
                           ORDER BY r.created_at, r.target_id), '[]') FROM follow_requests r WHERE r.requester_id = ${u}::uuid),
        'requestsReceived', (SELECT coalesce(json_agg(json_build_object('userId', r.requester_id, 'handle', ${handleOf(Prisma.sql`r.requester_id`)}, 'at', r.created_at)
                               ORDER BY r.created_at, r.requester_id), '[]') FROM follow_requests r WHERE r.target_id = ${u}::uuid)
      ) AS v`,
  ],
  [
    "notifications.json",
    Prisma.sql`
      SELECT coalesce(json_agg(json_build_object('id', n.id, 'type', n.type, 'payload', ${readablePayloadSql(u)}, 'createdAt', n.created_at, 'readAt', n.read_at, 'archivedAt', n.archived_at)
        ORDER BY n.id), '[]') AS v
      FROM notifications n WHERE n.user_id = ${u}::uuid`,
  ],
  [
    "reports.json",
    // What the user reported and whether it is still open; never what staff decided or who decided it.
    Prisma.sql`
      SELECT coalesce(json_agg(json_build_object('id', r.id, 'postId', r.post_id, 'commentId', r.comment_id, 'userId', r.target_user_id, 'listingId', r.listing_id,
        'binderId', r.binder_id, 'reason', r.reason, 'note', r.note, 'createdAt', r.created_at,
        'status', CASE WHEN r.resolved_at IS NULL THEN 'open' ELSE 'closed' END) ORDER BY r.id), '[]') AS v
      FROM reports r WHERE r.reporter_id = ${u}::uuid`,
  ],
  [
    "matchday.json",
    Prisma.sql`
      SELECT json_build_object(
        'predictions', (SELECT coalesce(json_agg(json_build_object('gameId', p.game_id, 'outcome', p.outcome, 'homeScore', p.home_score, 'awayScore', p.away_score,
                          'createdAt', p.created_at, 'updatedAt', p.updated_at, 'points', p.points) ORDER BY p.id), '[]') FROM predictions p WHERE p.user_id = ${u}::uuid),
        'privateLeagues', (SELECT coalesce(json_agg(json_build_object('leagueId', l.id, 'name', l.name, 'owner', l.owner_id = m.user_id, 'joinedAt', m.joined_at)
                             ORDER BY m.joined_at, l.id), '[]') FROM private_league_members m JOIN private_leagues l ON l.id = m.league_id WHERE m.user_id = ${u}::uuid),
        'contestLineups', (SELECT coalesce(json_agg(json_build_object('contestId', c.contest_id, 'submittedAt', c.submitted_at, 'score', c.score, 'rank', c.rank,
                             'repPaid', c.prize_paid, 'captainId', c.captain_id,
                             'cards', (SELECT coalesce(json_agg(json_build_object('collectibleId', k.collectible_id, 'slot', k.slot) ORDER BY k.slot), '[]')
                                       FROM contest_lineup_cards k WHERE k.lineup_id = c.id)) ORDER BY c.id), '[]') FROM contest_lineups c WHERE c.user_id = ${u}::uuid),
        'badges', (SELECT coalesce(json_agg(json_build_object('badgeId', b.badge_id, 'grantedAt', b.granted_at) ORDER BY b.granted_at, b.badge_id), '[]')
                   FROM badge_grants b WHERE b.user_id = ${u}::uuid),
        'streakFreezes', (SELECT coalesce(json_agg(json_build_object('acquiredAt', f.acquired_at, 'usedForDay', f.used_for_day) ORDER BY f.acquired_at), '[]')
                          FROM streak_freezes f WHERE f.user_id = ${u}::uuid),
        'keepsakes', (SELECT coalesce(json_agg(json_build_object('gameId', k.game_id, 'serial', k.serial, 'grantedAt', k.granted_at) ORDER BY k.granted_at, k.id), '[]')
                      FROM arena_keepsakes k WHERE k.user_id = ${u}::uuid)
      ) AS v`,
  ],
  [
    "activity.json",
    Prisma.sql`
      SELECT json_build_object(
        'quests', (SELECT coalesce(json_agg(json_build_object('questId', q.quest_id, 'period', q.period_key, 'startedAt', q.started_at, 'completedAt', q.completed_at,
                     'repAwarded', q.rep_awarded) ORDER BY q.started_at, q.quest_id), '[]') FROM quest_progress q WHERE q.user_id = ${u}::uuid),
        'quizzes', (SELECT coalesce(json_agg(json_build_object('id', q.id, 'questId', q.quest_id, 'day', q.day, 'status', q.status, 'correct', q.correct_count,
                      'startedAt', q.started_at, 'endedAt', q.ended_at, 'repAwarded', q.rep_awarded) ORDER BY q.id), '[]') FROM quiz_sessions q WHERE q.user_id = ${u}::uuid),
        'checkIns', (SELECT coalesce(json_agg(json_build_object('id', c.id, 'teamId', c.team_id, 'gameId', c.game_id, 'day', c.day, 'createdAt', c.created_at) ORDER BY c.id), '[]')
                     FROM arena_check_ins c WHERE c.user_id = ${u}::uuid),
        'passes', (SELECT coalesce(json_agg(json_build_object('passId', p.pass_id, 'grantedAt', p.granted_at, 'expiresAt', p.expires_at) ORDER BY p.granted_at, p.pass_id), '[]')
                   FROM user_passes p WHERE p.user_id = ${u}::uuid),
        'gameRatings', (SELECT coalesce(json_agg(json_build_object('id', g.id, 'gameId', g.game_id, 'createdAt', g.created_at, 'updatedAt', g.updated_at,
                          'scores', (SELECT coalesce(json_agg(to_jsonb(s) - 'rating_id' ORDER BY s.player_id), '[]') FROM game_rating_scores s WHERE s.rating_id = g.id))
                          ORDER BY g.id), '[]') FROM game_ratings g WHERE g.user_id = ${u}::uuid),
        -- A running guessing game's answer stays secret.
        'guessGames', (SELECT coalesce(json_agg(json_build_object('id', g.id, 'teamId', g.team_id, 'status', g.status, 'cluesRevealed', g.clues_revealed, 'guesses', g.guesses,
                         'answer', CASE WHEN g.status = 'active' THEN NULL ELSE g.player_id END, 'startedAt', g.started_at, 'endedAt', g.ended_at) ORDER BY g.started_at, g.id), '[]')
                       FROM guess_sessions g WHERE g.user_id = ${u}::uuid),
        'supportTickets', (SELECT coalesce(json_agg(json_build_object('id', t.id, 'subject', t.subject, 'status', t.status, 'createdAt', t.created_at,
                             'messages', (SELECT coalesce(json_agg(json_build_object('fromStaff', m.from_staff, 'body', m.body, 'createdAt', m.created_at) ORDER BY m.created_at, m.id), '[]')
                                          FROM support_messages m WHERE m.ticket_id = t.id)) ORDER BY t.created_at, t.id), '[]')
                           FROM support_tickets t WHERE t.user_id = ${u}::uuid),
        'invite', (SELECT json_build_object('code', i.code, 'createdAt', i.created_at,
                     'redeemedBy', (SELECT coalesce(json_agg(json_build_object('handle', ${handleOf(Prisma.sql`r.invitee_id`)}, 'at', r.created_at) ORDER BY r.created_at), '[]')
                                    FROM invite_redemptions r WHERE r.code = i.code))
                   FROM invites i WHERE i.user_id = ${u}::uuid),
        'invitedBy', (SELECT json_build_object('handle', ${handleOf(Prisma.sql`r.inviter_id`)}, 'code', r.code, 'at', r.created_at) FROM invite_redemptions r WHERE r.invitee_id = ${u}::uuid),
        'referralRewards', (SELECT coalesce(json_agg(json_build_object('role', CASE WHEN rr.referee_id = ${u}::uuid THEN 'referee' ELSE 'referrer' END,
                              'state', rr.state, 'qualifiedAt', rr.qualified_at, 'referrerRep', rr.referrer_amount, 'refereeRep', rr.referee_amount,
                              'clawedBackAt', rr.clawed_back_at, 'clawedBackRep', rr.clawed_back_amount) ORDER BY rr.qualified_at, rr.referee_id), '[]')
                            FROM referral_rewards rr WHERE rr.referee_id = ${u}::uuid OR rr.referrer_id = ${u}::uuid),
        'uploads', (SELECT coalesce(json_agg(json_build_object('id', m.id, 'kind', m.kind, 'url', m.url, 'contentType', m.content_type, 'bytes', m.bytes,
                      'width', m.width, 'height', m.height, 'createdAt', m.created_at, 'attachedAt', m.attached_at) ORDER BY m.created_at, m.id), '[]')
                    FROM media_uploads m WHERE m.user_id = ${u}::uuid),
        'feedSignals', (SELECT coalesce(json_agg(json_build_object('receivedAt', s.received_at, 'events', s.events) ORDER BY s.received_at, s.id), '[]')
                        FROM feed_signal_batches s WHERE s.user_id = ${u}::uuid),
        -- The for-you rankings made for the user (lib/features/feeds; each lives an hour): when, and how many posts each ranked.
        'feedSnapshots', (SELECT coalesce(json_agg(json_build_object('createdAt', f.created_at, 'size', f.size) ORDER BY f.created_at, f.id), '[]')
                          FROM feed_snapshots f WHERE f.user_id = ${u}::uuid),
        'postingSuspensions', (SELECT coalesce(json_agg(json_build_object('from', p.created_at, 'until', p.until, 'liftedAt', p.lifted_at) ORDER BY p.created_at, p.id), '[]')
                               FROM posting_suspensions p WHERE p.user_id = ${u}::uuid),
        -- Actions against the user as GET /api/v1/me/moderation-actions shows them (the reason given, the dates, the
        -- appeal and its outcome); never who decided or staff's notes.
        'moderationActions', (SELECT coalesce(json_agg(json_build_object('id', a.id, 'kind', a.kind, 'reason', a.reason, 'at', a.created_at, 'endsAt', a.ends_at,
                                'liftedAt', a.lifted_at, 'appeal', CASE WHEN ap.id IS NULL THEN NULL ELSE json_build_object('text', ap.text, 'status', ap.status,
                                'at', ap.created_at, 'decidedAt', ap.decided_at) END) ORDER BY a.id), '[]')
                              FROM moderation_actions a LEFT JOIN moderation_appeals ap ON ap.action_id = a.id WHERE a.user_id = ${u}::uuid)
      ) AS v`,
  ],
];

export const EXPORT_FILES = areas("00000000-0000-0000-0000-000000000000").map(([file]) => file);

/**
 * Reads every area of the user's data in one REPEATABLE READ, READ ONLY transaction: one snapshot, taken at its
 * first statement. Answers the documents by file name and the snapshot's time; null when the user is gone.
 */
export async function readSnapshot(db: Db, userId: string): Promise<{ takenAt: Date; files: Record<string, unknown> } | null> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SET TRANSACTION READ ONLY`;
      await tx.$executeRaw`SET LOCAL TimeZone = 'UTC'`;
      const [first] = await tx.$queryRaw<{ takenAt: Date; exists: boolean }[]>`
        SELECT statement_timestamp() AS "takenAt", EXISTS (SELECT 1 FROM users WHERE id = ${userId}::uuid) AS exists`;
      if (!first?.exists) return null;
      const files: Record<string, unknown> = {};
      for (const [file, sql] of areas(userId)) {
        const [row] = await tx.$queryRaw<{ v: unknown }[]>(sql);
        files[file] = row?.v ?? null;
      }
      return { takenAt: first.takenAt, files };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 15_000, timeout: 120_000 },
  );
}
