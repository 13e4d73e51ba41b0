import { z } from "zod";

// The fulfilment console's form schemas and result messages (shared by the page and its actions).

export const FULFILMENT_KINDS = ["none", "digital", "voucher", "physical"] as const;
export const STATUS_TABS = ["pending", "shipped", "delivered", "failed", "fulfilled"] as const;

const confirm = z.literal("yes", { message: "confirm" });
const claimId = z.string().regex(/^[0-9a-f-]{36}$/i, { message: "missing" });

export const moveForm = z.strictObject({
  claimId,
  status: z.enum(["shipped", "delivered", "failed"], { message: "status" }),
  trackingCode: z.string().trim().max(100, { message: "tracking" }).optional(),
  note: z.string().trim().max(500, { message: "note" }).optional(),
  confirm,
});

export const codesForm = z.strictObject({
  rewardId: z.string().min(1, { message: "missing" }).max(128),
  codes: z.string().max(200_000, { message: "codes" }),
  confirm,
});

export const kindForm = z.strictObject({
  rewardId: z.string().min(1, { message: "missing" }).max(128),
  fulfilment: z.enum(FULFILMENT_KINDS, { message: "kind" }),
  confirm,
});

/** One code per line (blank lines dropped); at most 1000 per paste. */
export const parseCodes = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

export const ERRORS: Record<string, string> = {
  confirm: "Tick Confirm to go ahead.",
  missing: "No such claim or reward.",
  status: "Choose shipped, delivered or failed.",
  tracking: "A tracking code is at most 100 characters.",
  note: "A note is at most 500 characters.",
  codes: "Paste 1 to 1000 codes, one per line, without spaces (each at most 200 characters).",
  kind: "Choose a fulfilment kind.",
  FULFILMENT_TRANSITION_INVALID: "That move is not allowed from the claim's current status (or the reward is not a voucher reward).",
  NOT_FOUND: "No such claim or reward.",
};

export const DONE: Record<string, string> = {
  shipped: "Claim marked shipped.",
  delivered: "Claim marked delivered.",
  failed: "Claim marked failed: its Rep and stock were given back.",
  unchanged: "The claim already had that status: nothing was done again.",
  codes: "Voucher codes added.",
  kind: "Fulfilment kind saved.",
};
