import { when } from "../_lib/ui";

// What the quests pages share: their error messages and how a window reads.

export const QUEST_ERRORS: Record<string, string> = {
  title: "Enter a title (1-120 characters).",
  slug: "The slug must be lower-case letters, digits and single hyphens (at most 80), and not used by another quest.",
  description: "The description is at most 500 characters.",
  kind: "Choose a kind.",
  scope: "Choose a scope.",
  cadence: "Choose a cadence.",
  repReward: "The Rep reward is a whole number from 0 to 100000.",
  repSource: "Choose the Rep type.",
  quizLength: "Questions per quiz: a whole number from 1 to 20.",
  quizSeconds: "Seconds per question: a whole number from 5 to 120.",
  availableFrom: "Available from: a date and time (UTC).",
  availableUntil: "Available until: a date and time (UTC).",
  window: "The window must end after it starts.",
  team: "A team quest needs a team that exists.",
  teamId: "A team quest needs a team that exists.",
  pass: "A pass quest needs a pass that exists.",
  passId: "A pass quest needs a pass that exists.",
  missing: "No such quest.",
};

export const questWindow = (from: Date | null, until: Date | null) =>
  from || until ? `${from ? when(from) : "open"} → ${until ? when(until) : "open-ended"}` : "Always (no window)";
