-- FOLLOW and FOLLOW_REQUEST (lib/follows) are community notifications: users.notify_community is their in-app switch
-- too (lib/push/schemas.ts SETTING_TYPES), so turning it back on turns them on.
CREATE OR REPLACE FUNCTION users_notify_preferences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notification_preferences SET in_app = true, updated_at = now()
  WHERE user_id = NEW.id AND NOT in_app AND (
       (NEW.notify_teams AND NOT OLD.notify_teams AND type IN ('GAME_ALERT', 'RATING', 'TEAM_POST'))
    OR (NEW.notify_milestones AND NOT OLD.notify_milestones AND type = 'MILESTONE')
    OR (NEW.notify_community AND NOT OLD.notify_community AND type IN ('REPLY', 'REACTION', 'FOLLOW', 'FOLLOW_REQUEST'))); RETURN NULL; END $$;
