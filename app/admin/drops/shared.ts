import { z } from "zod";

// What the drops page and its actions share: the forms' fields turned into the API's create bodies (validated by the
// API's own schemas, lib/features/drops and lib/features/challenges), and the result codes' messages.

/** A datetime-local value ("2026-12-01T18:00") read as UTC. */
export const utc = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? `${v}:00Z` : v);
const int = (v: string | undefined) => (v && /^-?\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : v === "" ? undefined : v);

export function dropBody(f: Record<string, string | undefined>) {
  return {
    name: f.name,
    packId: f.packId,
    mode: f.mode,
    price: int(f.price),
    quantity: int(f.quantity),
    perUserCap: int(f.perUserCap),
    opensAt: utc(f.opensAt),
    closesAt: utc(f.closesAt),
    ...(f.queueWindow ? { queueWindow: int(f.queueWindow) } : {}),
  };
}

/** "cc_a=2, cc_b": card ids, each with an optional count. */
const cardList = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]+(=\d{1,3})?(\s*,\s*[A-Za-z0-9_-]+(=\d{1,3})?)*$/);

export function challengeBody(f: Record<string, string | undefined>) {
  const cards = cardList.safeParse(f.cards ?? "");
  return {
    title: f.title,
    ...(f.description ? { description: f.description } : {}),
    startsAt: utc(f.startsAt),
    endsAt: utc(f.endsAt),
    cards: cards.success
      ? cards.data.split(",").map((c) => {
          const [cardId, count] = c.split("=").map((x) => x.trim());
          return count ? { cardId, count: Number(count) } : { cardId };
        })
      : f.cards,
    reward: {
      ...(f.rewardCardId ? { cardId: f.rewardCardId, supply: int(f.rewardSupply) } : {}),
      rep: int(f.rewardRep) ?? 0,
    },
  };
}

export const DROPS_ERRORS: Record<string, string> = {
  name: "Enter a name (1-120 characters).",
  title: "Enter a title (1-120 characters).",
  packId: "Choose a pack on sale (not the starter pack).",
  mode: "Choose draw or queue.",
  price: "The price is a whole number of minor units (100 = 1 coin).",
  quantity: "The quantity is a whole number, 1 or more.",
  perUserCap: "The cap per fan is a whole number, 1 or more.",
  queueWindow: "The queue window is a whole number, 1 or more.",
  opensAt: "Give when it opens (UTC).",
  closesAt: "The close must be after the opening (UTC).",
  startsAt: "Give when entries open (UTC).",
  endsAt: "The deadline must be after the start, in the future, at most a year ahead (UTC).",
  cards: "Cards are catalog card ids, each with an optional count: cc_a=2, cc_b.",
  reward: "A reward is a card with a supply, Rep, or both.",
  NOT_FOUND: "A pack or card named there does not exist.",
  VALIDATION_ERROR: "That drop or challenge is not valid: check the pack, the cards and the reward's supply.",
};

export const DROPS_DONE: Record<string, string> = {
  drop: "Drop created: its seed's hash is published now; the seed is revealed once the order is fixed.",
  challenge: "Challenge created: its reward serials' order is committed (the seed's hash is shown).",
  ran: "Due draws and queue orders ran.",
  packsPaused: "Nothing ran: packs are paused for everyone (kill switch). Due drops are drawn after the resume.",
};
