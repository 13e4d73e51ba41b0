-- REPOST and QUOTE are community notifications like REACTION and MENTION: switching notify_community back on turns
-- their in-app preference back on too (the function as the tags migration left it, with the two types added).
CREATE OR REPLACE FUNCTION users_notify_preferences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notification_preferences SET in_app = true, updated_at = now()
  WHERE user_id = NEW.id AND NOT in_app AND (
       (NEW.notify_teams AND NOT OLD.notify_teams AND type IN ('GAME_ALERT', 'RATING', 'TEAM_POST'))
    OR (NEW.notify_milestones AND NOT OLD.notify_milestones AND type IN ('MILESTONE', 'STREAK_AT_RISK'))
    OR (NEW.notify_community AND NOT OLD.notify_community AND type IN ('REPLY', 'REACTION', 'FOLLOW', 'FOLLOW_REQUEST', 'MENTION', 'REPOST', 'QUOTE'))); RETURN NULL; END $$;
