// Offer settings: the least offer a user takes for any copy of a card, and the users whose offers and trade
// proposals they refuse (blocked users are refused anyway). Enforced by makeOffer (offers.ts) and trade proposals.
import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { lockUser } from "../../db/tx";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { errors as marketplaceErrors } from "./errors";
import { existingCards, existingUsers, minimumOfferFor, offerSettingsOf, refuses, replaceOfferSettings } from "./trade-queries";
import type { OfferSettingsInput } from "./trade-schemas";

const toSettings = (s: Awaited<ReturnType<typeof offerSettingsOf>>) => ({ minimumOffers: s.minimums, refusedUserIds: s.refusedUserIds });

export async function getOfferSettings(db: RawDb | DbTx, userId: string) {
  return { settings: toSettings(await offerSettingsOf(db, userId)) };
}

/** Replaces the caller's settings; an unknown card or user, or the caller among the refused, is a 400 naming it. */
export async function putOfferSettings(db: Db, userId: string, input: OfferSettingsInput) {
  const cards = await existingCards(
    db,
    input.minimumOffers.map((m) => m.cardId),
  );
  const users = await existingUsers(db, input.refusedUserIds);
  const details = [
    ...input.minimumOffers.flatMap((m, i) => (cards.has(m.cardId) ? [] : [{ path: `body.minimumOffers.${i}.cardId`, message: "No such card" }])),
    ...input.refusedUserIds.flatMap((id, i) =>
      id === userId
        ? [{ path: `body.refusedUserIds.${i}`, message: "You cannot refuse yourself" }]
        : users.has(id)
          ? []
          : [{ path: `body.refusedUserIds.${i}`, message: "No such user" }],
    ),
  ];
  if (details.length) throw new DomainError(sharedErrors.VALIDATION_ERROR, "Some settings name no card or user (details name them).", details);
  await db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    await replaceOfferSettings(tx, userId, { minimums: input.minimumOffers, refusedUserIds: input.refusedUserIds });
  });
  return getOfferSettings(db, userId);
}

/** An offer's checks against the owner's settings: 409 REFUSED_BY_USER, 409 OFFER_BELOW_MINIMUM. */
export async function assertOfferWelcome(db: RawDb | DbTx, ownerId: string, buyerId: string, collectibleId: string, amount: number) {
  if (await refuses(db, ownerId, buyerId)) throw new DomainError(marketplaceErrors.REFUSED_BY_USER, "The owner does not take your offers.");
  const minimum = await minimumOfferFor(db, ownerId, collectibleId);
  if (minimum !== undefined && amount < minimum) {
    throw new DomainError(marketplaceErrors.OFFER_BELOW_MINIMUM, `The owner takes offers of at least ${minimum} for this card.`, [
      { path: "body.amount", message: `at least ${minimum}` },
    ]);
  }
}
