import { z } from "zod";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, idString, intQuery, isoDateTime } from "../../kernel/schemas";
import { CLIENT_EARN_KIND_NAMES, SERVER_AWARDED_KINDS } from "./grants";

export const repSource = z.enum(["fanAmp", "club", "playerAmp", "serviceDirect"]);

export const ledgerEntry = z
  .object({
    id: z.string(),
    source: repSource,
    amount: z.number().int().meta({ description: "Rep granted (integer; negative for debits)." }),
    timestamp: isoDateTime.meta({ description: "When the entry was written (UTC, ISO 8601)." }),
    reason: z.string(),
  })
  .meta({ id: "RepLedgerEntry" });

export const ledgerQuery = z.strictObject({
  cursor: cursorQuery,
  limit: intQuery(1, 100, 20),
});

export const ledgerPage = pageSchema("entries", ledgerEntry, { id: "RepLedgerPage", nextCursor: "Present only when more entries remain." });

export const earnKind = z.enum([...CLIENT_EARN_KIND_NAMES, ...SERVER_AWARDED_KINDS]).meta({
  description: `Client-claimable kinds: ${CLIENT_EARN_KIND_NAMES.join(", ")} (profile_completed and notifications_enabled only when the server sees a complete profile or a notification setting on; else 409 EARN_CONDITION_NOT_MET). ${SERVER_AWARDED_KINDS.join(", ")} are awarded by the server and answer 403 EARN_KIND_SERVER_AWARDED.`,
});

export const earnBody = z.strictObject({
  earnKind,
  idempotencyKey: z
    .string()
    .min(8)
    .max(128)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Use 8-128 characters of A-Z, a-z, 0-9, _ . : -")
    .meta({ description: "Client-chosen key; retrying with the same key replays the first result and never grants twice." }),
  targetId: idString.optional().meta({ description: "Required for article_read and post_shared; not accepted for other kinds." }),
});

export const earnResult = z
  .object({
    entry: ledgerEntry,
    balance: z.number().int().meta({ description: "The caller's Rep balance after the grant." }),
    replayed: z.boolean().meta({ description: "True when this answer replays an earlier request with the same idempotency key." }),
  })
  .meta({ id: "RepEarnResult" });

export type EarnInput = z.infer<typeof earnBody>;
