// Quests, passes and quiz questions

// Quests are data: kind (quiz, check_in, visit, multi_step), scope (global, team, pass), cadence (daily, once),
// steps (null condition: the app reports it; else the server checks it). Every live team has a daily quiz
// (q_quiz_<key>, questions generated below from the team and roster facts) and a daily arena check-in quest
// (q_checkin_<key>, repReward 0: the check-in's own Rep is its reward). q_daily_prediction is retired.

import { fnv, SEED_TIMESTAMP, type SeedPass, type SeedQuest, type SeedQuestStep, type SeedQuizQuestion, type SeedTeam } from "./types";
import { CONFERENCES, DIVISIONS, LEAGUES } from "./leagues";
import { TEAMS } from "./teams";
import { PLAYERS } from "./players";

const once = { cadence: "once", isDaily: false, passId: null, quizLength: null, quizSeconds: null, retiredAt: null } as const;
const daily = { cadence: "daily", isDaily: true, passId: null, quizLength: null, quizSeconds: null, retiredAt: null } as const;

export const PASSES: readonly SeedPass[] = [
  { id: "pass_season_2026", slug: "season-pass-2026", name: "Season Pass 2026", kind: "global", gameId: null },
  { id: "pass_gm_nfl_013", slug: "hawks-at-grizzlies-2027-01-10", name: "Hawks at Grizzlies, Jan 10", kind: "event", gameId: "gm_nfl_013" },
];

const LIVE_TEAMS = TEAMS.filter((t) => t.archivedAt === null);
const teamKey = (teamId: string) => teamId.slice("tm_".length);

export const QUESTS: readonly SeedQuest[] = [
  {
    id: "q_daily_checkin",
    slug: "daily-check-in",
    title: "Daily check-in",
    description: "Open the app and check in once a day.",
    teamId: null,
    repReward: 10,
    active: true,
    kind: "visit",
    scope: "global",
    repSource: "serviceDirect",
    ...daily,
  },
  {
    id: "q_daily_prediction",
    slug: "daily-prediction",
    title: "Call a game",
    description: "Predict the winner of one upcoming game today.",
    teamId: null,
    repReward: 15,
    active: false,
    kind: "multi_step",
    scope: "global",
    repSource: "serviceDirect",
    ...daily,
    retiredAt: SEED_TIMESTAMP,
  },
  {
    id: "q_follow_three",
    slug: "follow-three-teams",
    title: "Build your lineup",
    description: "Follow three teams from any league.",
    teamId: null,
    repReward: 50,
    active: true,
    kind: "multi_step",
    scope: "global",
    repSource: "serviceDirect",
    ...once,
  },
  {
    id: "q_complete_profile",
    slug: "complete-your-profile",
    title: "Complete your profile",
    description: "Add a handle, a display name and an avatar.",
    teamId: null,
    repReward: 25,
    active: true,
    kind: "multi_step",
    scope: "global",
    repSource: "serviceDirect",
    ...once,
  },
  {
    id: "q_hawks_superfan",
    slug: "hawks-superfan",
    title: "Hawks superfan",
    description: "Join the Harbor City Hawks community and cheer on game day.",
    teamId: "tm_hch",
    repReward: 100,
    active: true,
    kind: "multi_step",
    scope: "team",
    repSource: "club",
    ...once,
  },
  {
    id: "q_season_pass_kickoff",
    slug: "season-pass-kickoff",
    title: "Season pass kickoff",
    description: "For Season Pass holders: watch the season preview and share your prediction.",
    teamId: null,
    repReward: 40,
    active: true,
    kind: "multi_step",
    scope: "pass",
    repSource: "serviceDirect",
    ...once,
    passId: "pass_season_2026",
  },
  ...LIVE_TEAMS.flatMap((t): SeedQuest[] => [
    {
      id: `q_quiz_${teamKey(t.id)}`,
      slug: `${t.slug}-daily-quiz`,
      title: `${t.name} daily quiz`,
      description: `Five questions about the ${t.name}, 20 seconds each.`,
      teamId: t.id,
      repReward: 30,
      active: true,
      kind: "quiz",
      scope: "team",
      repSource: "club",
      ...daily,
      quizLength: 5,
      quizSeconds: 20,
    },
    {
      id: `q_checkin_${teamKey(t.id)}`,
      slug: `${t.slug}-arena-check-in`,
      title: `Check in for the ${t.name}`,
      description: `Check in at the arena for the ${t.name}.`,
      teamId: t.id,
      repReward: 0,
      active: true,
      kind: "check_in",
      scope: "team",
      repSource: "club",
      ...daily,
    },
  ]),
];

export const QUEST_STEPS: readonly SeedQuestStep[] = [
  { id: "qs_follow_three_1", questId: "q_follow_three", position: 1, title: "Follow three teams", condition: "follows_three_teams" },
  { id: "qs_complete_profile_1", questId: "q_complete_profile", position: 1, title: "Pick a handle", condition: "handle_set" },
  { id: "qs_complete_profile_2", questId: "q_complete_profile", position: 2, title: "Add a display name", condition: "display_name_set" },
  { id: "qs_complete_profile_3", questId: "q_complete_profile", position: 3, title: "Add an avatar", condition: "avatar_set" },
  { id: "qs_hawks_superfan_1", questId: "q_hawks_superfan", position: 1, title: "Join the Hawks", condition: "joined_team" },
  { id: "qs_hawks_superfan_2", questId: "q_hawks_superfan", position: 2, title: "Check in at a Hawks game", condition: "arena_check_in" },
  { id: "qs_hawks_superfan_3", questId: "q_hawks_superfan", position: 3, title: "Rate a game", condition: "game_rated" },
  { id: "qs_season_pass_kickoff_1", questId: "q_season_pass_kickoff", position: 1, title: "Watch the season preview", condition: null },
  { id: "qs_season_pass_kickoff_2", questId: "q_season_pass_kickoff", position: 2, title: "Share your season prediction", condition: null },
];

// Quiz questions: real facts of the seed (founding date, city, league, sport, abbreviation, nickname, colour,
// conference, division, roster jersey numbers and positions), four choices each, the three wrong ones and the
// answer's place picked deterministically (a hash of the question id), so the seed stays byte-identical.

/** Four choices: three distinct wrong ones from `pool` and the answer at a hashed position; null when the pool is too small. */
function choicesFor(id: string, answer: string, pool: readonly string[]): { choices: string[]; answerIndex: number } | null {
  const wrong = [...new Set(pool)].filter((c) => c !== answer).sort();
  if (wrong.length < 3) return null;
  const start = fnv(id) % wrong.length;
  const picked = [0, 1, 2].map((i) => wrong[(start + i) % wrong.length]!);
  const answerIndex = fnv(`${id}:answer`) % 4;
  picked.splice(answerIndex, 0, answer);
  return { choices: picked, answerIndex };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SPORTS = ["football", "basketball", "hockey", "soccer"];

function quizQuestionsFor(t: SeedTeam): SeedQuizQuestion[] {
  const key = teamKey(t.id);
  const league = LEAGUES.find((l) => l.id === t.leagueId)!;
  const leagueTeams = LIVE_TEAMS.filter((o) => o.leagueId === t.leagueId);
  const [year, month] = t.foundedDate.split("-").map(Number) as [number, number];
  const facts: { prompt: string; answer: string; pool: readonly string[] }[] = [
    {
      prompt: `In what year were the ${t.name} founded?`,
      answer: String(year),
      pool: [-9, -6, -4, -2, 1, 3, 5, 8].map((d) => String(year + d)),
    },
    { prompt: `In which month of ${year} were the ${t.name} founded?`, answer: MONTHS[month - 1]!, pool: MONTHS },
    { prompt: `Which city do the ${t.name} call home?`, answer: t.city, pool: LIVE_TEAMS.map((o) => o.city) },
    { prompt: `Which league do the ${t.name} play in?`, answer: league.name, pool: LEAGUES.map((l) => l.name) },
    { prompt: `What sport do the ${t.name} play?`, answer: t.sport || league.sport, pool: SPORTS },
    { prompt: `What is the abbreviation of the ${t.name}?`, answer: t.abbreviation, pool: leagueTeams.map((o) => o.abbreviation) },
    { prompt: `What is the nickname of the ${league.shortName} team from ${t.city}?`, answer: t.shortName, pool: leagueTeams.map((o) => o.shortName) },
    { prompt: `Which is the primary colour (hex) of the ${t.name}?`, answer: t.primaryColor, pool: LIVE_TEAMS.map((o) => o.primaryColor) },
  ];
  const conference = CONFERENCES.find((c) => c.id === t.conferenceId);
  if (conference) facts.push({ prompt: `Which conference are the ${t.name} in?`, answer: conference.name, pool: CONFERENCES.map((c) => c.name) });
  const division = DIVISIONS.find((d) => d.id === t.divisionId);
  if (division) facts.push({ prompt: `Which division are the ${t.name} in?`, answer: division.name, pool: DIVISIONS.map((d) => d.name) });
  const roster = PLAYERS.filter((p) => p.teamId === t.id && p.active);
  const leaguePositions = PLAYERS.filter((p) => LIVE_TEAMS.some((o) => o.id === p.teamId && o.leagueId === t.leagueId)).map((p) => p.position);
  for (const p of roster.slice(0, 4)) {
    facts.push({ prompt: `Which jersey number does ${p.name} wear for the ${t.shortName}?`, answer: p.jersey, pool: roster.map((o) => o.jersey) });
    facts.push({ prompt: `What position does ${p.name} play for the ${t.shortName}?`, answer: p.position, pool: leaguePositions });
  }
  return facts.flatMap((f, i) => {
    const id = `qq_${key}_${String(i + 1).padStart(2, "0")}`;
    const c = choicesFor(id, f.answer, f.pool);
    return c ? [{ id, questId: `q_quiz_${key}`, prompt: f.prompt, ...c, active: true }] : [];
  });
}

export const QUIZ_QUESTIONS: readonly SeedQuizQuestion[] = LIVE_TEAMS.flatMap(quizQuestionsFor);
