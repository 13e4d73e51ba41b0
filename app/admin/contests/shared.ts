// What the contests page and its actions share: the form's fields turned into the API's create body (validated by
// the API's own schema, lib/features/contests), and the result codes' messages.

/** A datetime-local value ("2026-12-01T18:00") read as UTC. */
const utc = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? `${v}:00Z` : v);
const int = (v: string) => (/^-?\d{1,15}$/.test(v) ? Number(v) : v);
const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/** "legendary=1, epic=2": a per-rarity cap. */
function caps(v: string | undefined) {
  const out: Record<string, unknown> = {};
  for (const part of list(v)) {
    const [rarity, n] = part.split("=").map((x) => x.trim());
    out[rarity ?? ""] = n === undefined ? n : int(n);
  }
  return out;
}

export function contestBody(f: Record<string, string | undefined>) {
  return {
    title: f.title,
    gameIds: list(f.gameIds),
    slots: list(f.slots),
    rarityCap: caps(f.rarityCap),
    ...(f.captainMultiplier ? { captainMultiplier: int(f.captainMultiplier) } : {}),
    prizes: list(f.prizes).map(int),
    ...(f.lockAt ? { lockAt: utc(f.lockAt) } : {}),
  };
}

export const CONTESTS_ERRORS: Record<string, string> = {
  confirm: "Tick the confirmation: a contest cannot be edited once fans enter lineups.",
  title: "Enter a title (1-120 characters).",
  gameIds: "Games are game ids separated by commas: scheduled games that have not kicked off, each once.",
  slots: 'Slots are positions separated by commas: each a position ("QB"), several ("RB/WR") or "*", at most 11.',
  rarityCap: "The rarity cap is rarity=count pairs: common, rare, epic, legendary.",
  captainMultiplier: "The captain multiplier is 1, 2 or 3.",
  prizes: "Prizes are Rep amounts by rank separated by commas (at most 100).",
  lockAt: "The lock must be in the future and not after the earliest kick-off (UTC).",
  VALIDATION_ERROR: "That contest is not valid: check the games (scheduled, not kicked off) and the lock.",
};

export const CONTESTS_DONE: Record<string, string> = {
  contest: "Contest created: fans can enter lineups until its lock.",
  ran: "Due settlements ran.",
};
