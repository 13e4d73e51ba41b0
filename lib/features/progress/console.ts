// The staff console's writes of tiers and badges (app/admin/progress): each in one transaction with its audit entry.
import type { Db } from "../../db/client";
import { isUniqueViolation, txOptions } from "../../db/tx";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { DomainError, notFound } from "../../kernel/errors";
import { errors as progressErrors } from "./errors";
import type { BadgeInput, TierInput } from "./schemas";

const taken = () => new DomainError(progressErrors.SLUG_TAKEN, "Another tier or badge has this slug (or, for a tier, this minimum Rep).");

async function refusingDuplicates<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Creates a tier (id null) or edits one. */
export function saveTier(db: Db, actor: StaffActor, id: string | null, input: TierInput) {
  return refusingDuplicates(() =>
    db.$transaction(async (tx) => {
      const before = id ? await tx.tier.findUnique({ where: { id } }) : null;
      if (id && !before) throw notFound("Tier");
      const tier = id ? await tx.tier.update({ where: { id }, data: { ...input, updatedAt: new Date() } }) : await tx.tier.create({ data: input });
      await recordAudit(tx, actor, {
        action: id ? "tier.update" : "tier.create",
        targetType: "tier",
        targetId: tier.id,
        before: before ? { slug: before.slug, name: before.name, minRep: before.minRep, perks: before.perks } : undefined,
        after: { ...input },
      });
      return tier;
    }, txOptions()),
  );
}

/** Creates a badge (id null) or edits one; `active` false retires it (its grants stay, hidden). */
export function saveBadge(db: Db, actor: StaffActor, id: string | null, input: BadgeInput & { active: boolean }) {
  return refusingDuplicates(() =>
    db.$transaction(async (tx) => {
      const before = id ? await tx.badge.findUnique({ where: { id } }) : null;
      if (id && !before) throw notFound("Badge");
      if (input.tierId && !(await tx.tier.findUnique({ where: { id: input.tierId }, select: { id: true } }))) throw notFound("Tier");
      const data = { ...input, earnKinds: input.rule === "rep_kind" ? input.earnKinds : [], tierId: input.rule === "tier" ? input.tierId : null };
      const badge = id ? await tx.badge.update({ where: { id }, data: { ...data, updatedAt: new Date() } }) : await tx.badge.create({ data });
      await recordAudit(tx, actor, {
        action: id ? "badge.update" : "badge.create",
        targetType: "badge",
        targetId: badge.id,
        before: before ? { ...before, createdAt: before.createdAt.toISOString(), updatedAt: before.updatedAt.toISOString() } : undefined,
        after: { ...data },
      });
      return badge;
    }, txOptions()),
  );
}
