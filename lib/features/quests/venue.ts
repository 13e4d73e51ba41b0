import { DomainError, validationError } from "../../kernel/errors";
import { utcDay } from "../../time";
import type { CheckInGame } from "./queries";
import type { CheckInBody } from "./schemas";
import { errors as questsErrors } from "./errors";

// Where and when an arena check-in counts: at a game of the team (inside its window around kick-off) and, where the
// venue's position is known, at the venue. Pure: the caller reads the game (checkInContextsOf) and the limits (env).

export interface VenueRules {
  radiusMeters: number;
  maxAccuracyMeters: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in meters (haversine): well within a meter of the ellipsoid's at a venue's scale. */
export function distanceMeters(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const h =
    Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The game this check-in is for, or the refusal: a named game must be the team's and on today's UTC day or open
 * now (CHECK_IN_GAME_MISMATCH); without one, the team needs a game today or one open now (NO_GAME_TODAY); the game's
 * window must hold `now` (CHECK_IN_CLOSED). Then, where the venue has coordinates, the device's location is required
 * (400), not mocked, accurate enough and within the radius.
 */
export function gameToCheckIn(game: CheckInGame | null, body: CheckInBody, now: Date, rules: VenueRules): CheckInGame {
  const today = utcDay(now);
  const isToday = game !== null && utcDay(game.startsAt) === today;
  if (body.gameId !== undefined && (!game || (!isToday && !game.inWindow))) {
    throw new DomainError(questsErrors.CHECK_IN_GAME_MISMATCH, "That game is not this team's game today (UTC).", [
      { path: "body.gameId", message: "Not a game of this team on today's UTC day" },
    ]);
  }
  if (!game || (!isToday && !game.inWindow))
    throw new DomainError(questsErrors.NO_GAME_TODAY, "This team has no game today: check-ins open around a game's kick-off.");
  if (!game.inWindow) {
    const opened = game.startsAt.getTime() > now.getTime() ? "has not opened yet" : "has closed";
    throw new DomainError(questsErrors.CHECK_IN_CLOSED, `Check-in for this game (kick-off ${game.startsAt.toISOString()}) ${opened}.`);
  }
  if (body.location?.mocked) throw new DomainError(questsErrors.LOCATION_MOCKED, "Your device reported a mock location: check in with its real position.");
  if (game.latitude === null || game.longitude === null) return game;
  const at = body.location;
  if (!at) {
    throw validationError("This game's venue has coordinates: send the device's location to check in.", [
      { path: "body.location", message: "Required: the device's position and accuracy" },
    ]);
  }
  if (at.accuracy > rules.maxAccuracyMeters) {
    throw new DomainError(
      questsErrors.LOCATION_TOO_COARSE,
      `Your location is accurate to ${Math.round(at.accuracy)} m; check-in needs ${rules.maxAccuracyMeters} m or better.`,
    );
  }
  const away = distanceMeters(at, { latitude: game.latitude, longitude: game.longitude });
  if (away > rules.radiusMeters) {
    throw new DomainError(questsErrors.NOT_AT_VENUE, `You are ${Math.round(away)} m from the venue; check in within ${rules.radiusMeters} m of it.`);
  }
  return game;
}
