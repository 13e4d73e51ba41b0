// Players

import type { PlayerAvailability } from "../../../lib/generated/prisma/enums";
import { CDN, type SeedPlayer } from "./types";

/** [name, jersey, position, role, duty, hasPhoto, availability?, active?] */
type PlayerRow = [string, string, string, string, string, boolean, PlayerAvailability?, boolean?];

const ROSTERS: Record<string, PlayerRow[]> = {
  // Harbor City Hawks (football): 12 players: 8 available, 1 injured, 1 suspended, 1 unavailable, 1 inactive.
  hch: [
    ["Marcus Bell", "12", "QB", "starter", "offense", true],
    ["Devon Okafor", "28", "RB", "starter", "offense", true],
    ["Tyler Brandt", "81", "WR", "starter", "offense", false],
    ["Andre Whitfield", "74", "OT", "starter", "offense", true],
    ["Jalen Moreau", "55", "LB", "starter", "defense", true],
    ["Chris Valdez", "24", "CB", "starter", "defense", false],
    ["Sam Kowalski", "4", "K", "starter", "special teams", true],
    ["Eli Novak", "17", "QB", "bench", "offense", false],
    ["Isaiah Grant", "91", "DE", "starter", "defense", true, "injured"],
    ["Ronnie Pike", "33", "S", "starter", "defense", false, "suspended"],
    ["Owen Hartley", "88", "TE", "bench", "offense", true, "unavailable"],
    ["Luis Carrasco", "6", "P", "bench", "special teams", false, "available", false],
  ],
  rmr: [
    ["Jordan Reyes", "9", "QB", "starter", "offense", true],
    ["Kofi Mensah", "22", "RB", "starter", "offense", true],
    ["Blake Thornton", "11", "WR", "starter", "offense", false],
    ["Nate Castillo", "52", "LB", "starter", "defense", true],
    ["Trey Lambert", "21", "CB", "starter", "defense", false, "injured"],
    ["Gavin Ross", "3", "K", "starter", "special teams", true],
    ["Dominic Shaw", "97", "DT", "bench", "defense", false],
    ["Wes Harlan", "14", "WR", "bench", "offense", false, "available", false],
  ],
  kpk: [
    ["Caleb Winters", "7", "QB", "starter", "offense", true],
    ["Mason Pruitt", "30", "RB", "starter", "offense", false],
    ["Darius Cole", "58", "LB", "starter", "defense", true],
    ["Ian Fletcher", "26", "S", "starter", "defense", true, "unavailable"],
    ["Henry Lowe", "2", "K", "starter", "special teams", false],
    ["Aaron Stokes", "85", "TE", "bench", "offense", false, "injured", false],
  ],
  // Basketball: duty = backcourt / frontcourt.
  lsl: [
    ["Jamal Porter", "3", "PG", "starter", "backcourt", true],
    ["Kevin Osei", "11", "SG", "starter", "backcourt", true],
    ["Luka Petrović", "23", "SF", "starter", "frontcourt", true],
    ["Darnell Hayes", "34", "PF", "starter", "frontcourt", false],
    ["Viktor Hale", "50", "C", "starter", "frontcourt", true],
    ["Tony Nguyen", "5", "PG", "bench", "backcourt", false],
    ["Reggie Banks", "8", "SG", "bench", "backcourt", true, "injured"],
    ["Malik Ford", "21", "PF", "bench", "frontcourt", false, "suspended"],
    ["Ethan Cruz", "14", "SF", "bench", "frontcourt", false],
    ["Paul Ambrose", "44", "C", "bench", "frontcourt", false, "available", false],
  ],
  ccc: [
    ["Dante Rivers", "1", "PG", "starter", "backcourt", true],
    ["Noah Lindqvist", "13", "SG", "starter", "backcourt", false],
    ["Aiden Brooks", "32", "SF", "starter", "frontcourt", true],
    ["Samuel Adeyemi", "42", "PF", "starter", "frontcourt", true, "injured"],
    ["Jonah West", "15", "C", "starter", "frontcourt", false],
    ["Corey Mills", "6", "G", "bench", "backcourt", false],
    ["Felix Duarte", "19", "F", "bench", "frontcourt", false, "unavailable", false],
  ],
  // Hockey: duty = forward / defense / goaltending.
  fpb: [
    ["Mikael Lindgren", "19", "C", "starter", "forward", true],
    ["Connor Doyle", "91", "LW", "starter", "forward", true],
    ["Pierre Gagnon", "27", "RW", "starter", "forward", false],
    ["Anton Volkov", "44", "D", "starter", "defense", true],
    ["Ryan McAllister", "2", "D", "starter", "defense", false],
    ["Jesse Koivu", "31", "G", "starter", "goaltending", true],
    ["Brady Olsen", "16", "C", "bench", "forward", false],
    ["Tomas Hrdina", "8", "D", "bench", "defense", false, "injured"],
    ["Liam Fortier", "35", "G", "bench", "goaltending", false],
    ["Kyle Barrett", "22", "RW", "bench", "forward", true, "suspended"],
    ["Nils Ekdahl", "5", "D", "bench", "defense", false, "available", false],
  ],
  gbo: [
    ["Evan Strand", "9", "C", "starter", "forward", true],
    ["Matt Kearney", "17", "LW", "starter", "forward", false],
    ["Oskar Berg", "6", "D", "starter", "defense", true],
    ["Cody Lachance", "30", "G", "starter", "goaltending", true],
    ["Jake Whitman", "24", "RW", "bench", "forward", false, "unavailable"],
    ["Dmitri Sokolov", "55", "D", "bench", "defense", false, "injured", false],
  ],
  // Soccer: duty = goalkeeping / defense / midfield / attack.
  whu: [
    ["Tom Ashworth", "1", "GK", "starter", "goalkeeping", true],
    ["Rafael Mendes", "2", "RB", "starter", "defense", true],
    ["Callum Price", "5", "CB", "starter", "defense", false],
    ["Kwame Asante", "6", "CB", "starter", "defense", true],
    ["Jack Pemberton", "3", "LB", "starter", "defense", false],
    ["Lucas Ferreira", "8", "CM", "starter", "midfield", true],
    ["Harry Quinn", "10", "AM", "starter", "midfield", true],
    ["Youssef Amrani", "7", "RW", "starter", "attack", true, "injured"],
    ["Dan Whitlock", "9", "ST", "starter", "attack", true],
    ["Mateo Ruiz", "11", "LW", "starter", "attack", false, "suspended"],
    ["Ollie Grant", "13", "GK", "bench", "goalkeeping", false],
    ["Ben Carver", "18", "CM", "bench", "midfield", false, "available", false],
  ],
  kbf: [
    ["Pieter de Vries", "1", "GK", "starter", "goalkeeping", true],
    ["Sean Gallagher", "4", "CB", "starter", "defense", false],
    ["Ivan Kovač", "15", "CB", "starter", "defense", true],
    ["Theo Marchetti", "8", "CM", "starter", "midfield", true],
    ["Ade Balogun", "14", "DM", "starter", "midfield", false, "unavailable"],
    ["Rhys Morgan", "7", "RW", "starter", "attack", true],
    ["Nico Albers", "9", "ST", "starter", "attack", true],
    ["Finn O'Hara", "20", "LW", "bench", "attack", false],
    ["George Tate", "23", "RB", "bench", "defense", false, "injured", false],
  ],
};

export const PLAYERS: readonly SeedPlayer[] = Object.entries(ROSTERS).flatMap(([key, rows]) =>
  rows.map(([name, jersey, position, role, duty, hasPhoto, availability = "available", active = true], i): SeedPlayer => {
    const id = `pl_${key}_${String(i + 1).padStart(2, "0")}`;
    return {
      id,
      teamId: `tm_${key}`,
      name,
      jersey,
      position,
      role,
      duty,
      photo: hasPhoto ? `${CDN}/players/${id}.png` : null,
      availability,
      active,
    };
  }),
);
