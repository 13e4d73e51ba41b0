-- Repairs listings left active after their item changed hands (an offer accepted while the owner listed the same
-- item, before every change of owner locked the collectible first and withdrew its listings): each is cancelled,
-- and an auction's top bid gets its held funds back with a ledger row (a UUIDv7 id, as lib/db/ids.ts makes them), as
-- the marketplace's own withdrawal does.
DO $$
DECLARE
  stale record;
  released record;
BEGIN
  FOR stale IN
    SELECT l.id, l.top_bid_id, l.currency FROM listings l JOIN collectibles c ON c.id = l.collectible_id
    WHERE l.status = 'active' AND l.seller_id <> c.owner_id
    ORDER BY l.id
    FOR UPDATE OF l
  LOOP
    IF stale.top_bid_id IS NOT NULL THEN
      UPDATE bids SET released_at = now() WHERE id = stale.top_bid_id AND released_at IS NULL
      RETURNING bidder_id, amount INTO released;
      IF FOUND THEN
        WITH w AS (
          INSERT INTO wallets (user_id, currency, balance, updated_at) VALUES (released.bidder_id, stale.currency, released.amount, now())
          ON CONFLICT (user_id, currency) DO UPDATE SET balance = wallets.balance + EXCLUDED.balance, updated_at = now()
          RETURNING balance
        )
        INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id, note)
        SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                 placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
               released.bidder_id, stale.currency, released.amount, w.balance, 'refund', 'bid', stale.top_bid_id::text,
               'Listing withdrawn: the item had changed hands'
        FROM w;
      END IF;
    END IF;
    UPDATE listings SET status = 'cancelled', active_item_id = NULL, closed_at = now() WHERE id = stale.id;
  END LOOP;
END $$;
