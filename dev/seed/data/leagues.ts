// Leagues, conferences, divisions

import { CDN, SEED_SEASON, type SeedConference, type SeedDivision, type SeedLeague } from "./types";

export const LEAGUES: readonly SeedLeague[] = [
  {
    id: "lg_nfl",
    slug: "nfl",
    name: "National Football League",
    shortName: "NFL",
    sport: "football",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/nfl.png`,
    primaryColor: "#013369",
    secondaryColor: "#D50A0A",
    displayOrder: 1,
    source: "provider",
    providerId: "prov_lg_1",
  },
  {
    id: "lg_nba",
    slug: "nba",
    name: "National Basketball Association",
    shortName: "NBA",
    sport: "basketball",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/nba.png`,
    primaryColor: "#1D428A",
    secondaryColor: "#C8102E",
    displayOrder: 2,
    source: "provider",
    providerId: "prov_lg_2",
  },
  {
    id: "lg_nhl",
    slug: "nhl",
    name: "National Hockey League",
    shortName: "NHL",
    sport: "hockey",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/nhl.png`,
    primaryColor: "#000000",
    secondaryColor: "#A2AAAD",
    displayOrder: 3,
    source: "provider",
    providerId: "prov_lg_3",
  },
  {
    id: "lg_psl",
    slug: "psl",
    name: "Premier Soccer League",
    shortName: "PSL",
    sport: "soccer",
    season: SEED_SEASON,
    logo: `${CDN}/leagues/psl.png`,
    primaryColor: "#3D195B",
    secondaryColor: "#00FF85",
    displayOrder: 4,
    source: "provider",
    providerId: "prov_lg_4",
  },
];

export const CONFERENCES: readonly SeedConference[] = [
  { id: "conf_nfl_afc", leagueId: "lg_nfl", name: "American Football Conference" },
  { id: "conf_nfl_nfc", leagueId: "lg_nfl", name: "National Football Conference" },
  { id: "conf_nba_east", leagueId: "lg_nba", name: "Eastern Conference" },
  { id: "conf_nba_west", leagueId: "lg_nba", name: "Western Conference" },
  { id: "conf_nhl_east", leagueId: "lg_nhl", name: "Eastern Conference" },
  { id: "conf_nhl_west", leagueId: "lg_nhl", name: "Western Conference" },
];

export const DIVISIONS: readonly SeedDivision[] = [
  { id: "div_nfl_afc_east", leagueId: "lg_nfl", conferenceId: "conf_nfl_afc", name: "AFC East" },
  { id: "div_nfl_afc_west", leagueId: "lg_nfl", conferenceId: "conf_nfl_afc", name: "AFC West" },
  { id: "div_nfl_nfc_east", leagueId: "lg_nfl", conferenceId: "conf_nfl_nfc", name: "NFC East" },
  { id: "div_nfl_nfc_west", leagueId: "lg_nfl", conferenceId: "conf_nfl_nfc", name: "NFC West" },
  { id: "div_nhl_east_atlantic", leagueId: "lg_nhl", conferenceId: "conf_nhl_east", name: "Atlantic Division" },
  { id: "div_nhl_east_metro", leagueId: "lg_nhl", conferenceId: "conf_nhl_east", name: "Metropolitan Division" },
  { id: "div_nhl_west_central", leagueId: "lg_nhl", conferenceId: "conf_nhl_west", name: "Central Division" },
  { id: "div_nhl_west_pacific", leagueId: "lg_nhl", conferenceId: "conf_nhl_west", name: "Pacific Division" },
];
