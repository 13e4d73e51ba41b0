import { z } from "zod";
import { isoDateTime } from "../../kernel/schemas";

export const deletionBody = z
  .strictObject({
    confirm: z.literal(true).meta({
      description: "Must be true: the caller acknowledges that the account, its content and its remaining coins (forfeited) go at the scheduled date.",
    }),
  })
  .meta({ id: "AccountDeletionRequest" });

export const forfeit = z
  .object({
    currency: z.literal("COIN"),
    decimals: z.number().int(),
    balance: z.number().int().meta({ description: "The spendable balance now, in minor units." }),
    held: z
      .number()
      .int()
      .meta({ description: "Minor units held for the caller's open offers, leading bids and open trades: released at the erasure, then forfeited too." }),
    forfeited: z.number().int().meta({ description: "balance + held: what is forfeited if the erasure ran now (minor units)." }),
  })
  .meta({ id: "AccountDeletionForfeit", description: "The coins the erasure forfeits (no refund, no transfer)." });

export const deletion = z
  .object({
    state: z.literal("scheduled"),
    requestedAt: isoDateTime,
    scheduledFor: isoDateTime.meta({
      description: "The end of the grace period: the erasure runs from then on (later while an auction of the caller's with bids is running).",
    }),
    coins: forfeit,
  })
  .meta({ id: "AccountDeletion" });

export const deletionResult = z
  .object({ deletion: deletion.nullable().meta({ description: "The caller's scheduled deletion; null when none is scheduled." }) })
  .meta({ id: "AccountDeletionResult" });

export const deletionCancelled = z.object({ cancelled: z.literal(true), deletion: z.null() }).meta({ id: "AccountDeletionCancelled" });

export const erasureResult = z
  .object({
    erased: z.number().int().meta({ description: "Accounts erased by this call." }),
    deferred: z.number().int().meta({ description: "Due accounts that must wait (an auction of theirs with bids, a mint under way): retried later." }),
    failed: z.number().int().meta({ description: "Accounts whose erasure failed (rolled back, retried later)." }),
    followUps: z.number().int().meta({ description: "Erased accounts whose stored files or identity-provider user were (re)tried." }),
  })
  .meta({ id: "AccountErasureResult" });
