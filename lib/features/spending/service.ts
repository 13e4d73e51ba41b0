import type { Db, DbTx } from "../../db/client";
import { txOptions, lockUser } from "../../db/tx";
import type { RawDb } from "../../db/raw";
import { env } from "../../env";
import { FEATURES, type Feature } from "../config/schemas";
import { DomainError, notFound, sharedErrors, validationError } from "../../kernel/errors";
import { featureCheck } from "../../http/features";
import { errors as moderationErrors } from "../moderation/errors";
import { tradingStanding } from "../moderation/service";
import { errors as accountsErrors } from "../../core/accounts/errors";
import { errors as walletsErrors } from "../../core/wallets/errors";
import { lockWallets } from "../../core/wallets/service";
import { errors as spendingErrors } from "./errors";
import { countrySetting, limitRowsOf, putLimit, usageOf, type LimitRow, type Usage } from "./queries";
import {
  defaultLimit,
  LIMIT_KINDS,
  LIMIT_MAX_FACTOR,
  LIMIT_PERIODS,
  RAISE_DELAY_HOURS,
  type LimitKind,
  type LimitPeriod,
  type SpendingLimitsPut,
} from "./schemas";

// Spending limits: daily and monthly caps on coins bought and on coins spent on packs, on by default with the
// configured values, each the fan's to set (lower at once, higher after RAISE_DELAY_HOURS). A purchase checks them
// under the buyer's wallet row lock, in the purchase's transaction, so concurrent purchases cannot pass a limit
// together. Packs are also refused in the configured countries (PACK_SALES_BLOCKED_COUNTRIES).

/** The limit in force now: the raise once its time has come, else the amount; the default without a row. */
function inForce(rows: LimitRow[], kind: LimitKind, period: LimitPeriod) {
  const row = rows.find((r) => r.kind === kind && r.period === period);
  if (!row) return { amount: defaultLimit(kind, period), row };
  return { amount: row.raised ? row.pendingAmount! : row.amount, row };
}

const usedOf = (usage: Usage, kind: LimitKind, period: LimitPeriod) =>
  kind === "packs" ? (period === "day" ? usage.packsDay : usage.packsMonth) : period === "day" ? usage.topupsDay : usage.topupsMonth;

function view(rows: LimitRow[], usage: Usage) {
  const one = (kind: LimitKind, period: LimitPeriod) => {
    const { amount, row } = inForce(rows, kind, period);
    const used = usedOf(usage, kind, period);
    const pending = row && !row.raised && row.pendingAmount !== null ? { amount: row.pendingAmount, effectiveAt: row.pendingFrom!.toISOString() } : null;
    return {
      amount,
      default: !row,
      used,
      remaining: Math.max(0, amount - used),
      resetsAt: (period === "day" ? usage.dayEndsAt : usage.monthEndsAt).toISOString(),
      pending,
    };
  };
  return {
    currency: "COIN" as const,
    topups: { day: one("topups", "day"), month: one("topups", "month") },
    packs: { day: one("packs", "day"), month: one("packs", "month") },
  };
}

export async function spendingLimitsOf(db: RawDb | DbTx, userId: string) {
  const [rows, usage] = await Promise.all([limitRowsOf(db, userId), usageOf(db, userId)]);
  return view(rows, usage);
}

/** PUT /api/v1/me/spending-limits, under the user's row lock: lower (or equal) at once, higher after the delay. */
export async function setSpendingLimits(db: Db, userId: string, body: SpendingLimitsPut) {
  for (const kind of LIMIT_KINDS) {
    for (const period of LIMIT_PERIODS) {
      const value = body[kind]?.[period];
      const max = LIMIT_MAX_FACTOR * defaultLimit(kind, period);
      if (value !== undefined && value > max) {
        throw validationError(`${kind}.${period} may be at most ${max}.`, [{ path: `body.${kind}.${period}`, message: `At most ${max}` }]);
      }
    }
  }
  return db.$transaction(async (tx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    const rows = await limitRowsOf(tx, userId);
    for (const kind of LIMIT_KINDS) {
      for (const period of LIMIT_PERIODS) {
        const value = body[kind]?.[period];
        if (value === undefined) continue;
        const current = inForce(rows, kind, period).amount;
        await putLimit(tx, userId, {
          kind,
          period,
          amount: Math.min(value, current),
          pendingAmount: value > current ? value : null,
          pendingHours: RAISE_DELAY_HOURS,
        });
      }
    }
    return view(await limitRowsOf(tx, userId), await usageOf(tx, userId));
  }, txOptions());
}

/** The first of the user's limits of `kind` that `amount` more would pass, with what is left; none when it fits. */
function limitPassed(rows: LimitRow[], usage: Usage, kind: LimitKind, amount: number) {
  for (const period of LIMIT_PERIODS) {
    const limit = inForce(rows, kind, period).amount;
    const left = Math.max(0, limit - usedOf(usage, kind, period));
    if (amount > left) return { period, limit, left, resetsAt: period === "day" ? usage.dayEndsAt : usage.monthEndsAt };
  }
  return undefined;
}

/**
 * In a purchase's transaction: refuses (409 SPENDING_LIMIT_REACHED) `amount` more of `kind` (coins spent on a pack, or
 * coins bought) past the buyer's daily or monthly limit. Takes the buyer's wallet row lock first (the lock the
 * payment or credit takes next), so concurrent purchases count each other.
 */
export async function assertWithinLimits(tx: DbTx, userId: string, kind: LimitKind, amount: number): Promise<void> {
  if (amount <= 0) return;
  await lockWallets(tx, [userId], "COIN");
  const [rows, usage] = [await limitRowsOf(tx, userId), await usageOf(tx, userId)];
  const passed = limitPassed(rows, usage, kind, amount);
  if (passed) {
    const what = kind === "packs" ? "pack spending" : "coin buying";
    throw new DomainError(
      spendingErrors.SPENDING_LIMIT_REACHED,
      `This would pass your ${passed.period === "day" ? "daily" : "monthly"} ${what} limit: ${passed.left} of ${passed.limit} left until ${passed.resetsAt.toISOString()}.`,
      [
        { path: `${kind}.${passed.period}`, message: `${passed.left} of ${passed.limit} left` },
        { path: "resetsAt", message: passed.resetsAt.toISOString() },
      ],
    );
  }
}

const BLOCKED = () =>
  new Set(
    env()
      .PACK_SALES_BLOCKED_COUNTRIES.split(",")
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
  );

/** The request's country as the hosting edge says it (Vercel's x-vercel-ip-country), upper-case, if any. */
export function requestCountry(req: Request): string | null {
  const c = req.headers.get("x-vercel-ip-country")?.trim().toUpperCase();
  return c && /^[A-Z]{2}$/.test(c) ? c : null;
}

/** 403 REGION_RESTRICTED when the fan's country setting or the request's country is one where packs are not sold. */
export async function assertPackSalesAllowed(db: RawDb | DbTx, userId: string, fromRequest: string | null): Promise<void> {
  const blocked = BLOCKED();
  if (blocked.size === 0) return;
  const setting = await countrySetting(db, userId);
  const country = [setting, fromRequest].find((c) => c !== null && blocked.has(c));
  if (country) throw new DomainError(spendingErrors.REGION_RESTRICTED, `Packs are not sold in ${country}.`, [{ path: "country", message: country }]);
}

/** The features paused for this user (kill switches), in FEATURES' order: the pipeline's check (lib/http/features.ts). */
async function pausedFeatures(userId: string): Promise<{ feature: Feature; message: string }[]> {
  const check = featureCheck();
  const reasons = await Promise.all(FEATURES.map((feature) => check(feature, { id: userId })));
  return FEATURES.flatMap((feature, i) => (reasons[i] === null ? [] : [{ feature, message: reasons[i]! }]));
}

/**
 * GET /api/v1/me/eligibility: whether the caller may buy coins and packs now, and every reason why not. Why no coins
 * can be bought here at all (no payment provider configured) is the caller's to say (`noPaymentProvider`, lib/features/payments
 * noPaymentProviderReason): payments sits above spending, whose limits a top-up checks.
 */
export async function eligibilityOf(db: RawDb | DbTx, userId: string, fromRequest: string | null, noPaymentProvider: { code: string; message: string } | null) {
  const [standing, rows, usage, setting, paused] = await Promise.all([
    tradingStanding(db, userId),
    limitRowsOf(db, userId),
    usageOf(db, userId),
    countrySetting(db, userId),
    pausedFeatures(userId),
  ]);
  const common: { code: string; message: string }[] = [];
  if (standing.restrictedUntil) {
    common.push({ code: moderationErrors.TRADING_RESTRICTED.code, message: `Trading is restricted until ${standing.restrictedUntil.toISOString()}.` });
  }
  if (standing.deletionPending) common.push({ code: accountsErrors.ACCOUNT_DELETION_PENDING.code, message: "Your account is scheduled for deletion." });
  const frozen = standing.debt
    ? [{ code: walletsErrors.WALLET_FROZEN.code, message: `Your wallet owes ${standing.debt} from a refunded top-up: later credits settle it first.` }]
    : [];
  const payments = noPaymentProvider ? [noPaymentProvider] : [];
  const limitReason = (kind: LimitKind) => {
    const passed = limitPassed(rows, usage, kind, 1);
    return passed
      ? [
          {
            code: spendingErrors.SPENDING_LIMIT_REACHED.code,
            message: `Your ${passed.period === "day" ? "daily" : "monthly"} limit is reached until ${passed.resetsAt.toISOString()}.`,
          },
        ]
      : [];
  };
  const blocked = BLOCKED();
  const restricted = [setting, fromRequest].find((c) => c !== null && blocked.has(c));
  const region = restricted ? [{ code: spendingErrors.REGION_RESTRICTED.code, message: `Packs are not sold in ${restricted}.` }] : [];
  const pausedReason = (feature: Feature) => {
    const p = paused.find((f) => f.feature === feature);
    return p ? [{ code: sharedErrors.FEATURE_DISABLED.code, message: p.message }] : [];
  };
  const coins = [...pausedReason("topups"), ...common, ...payments, ...limitReason("topups")];
  const packs = [...pausedReason("packs"), ...common, ...frozen, ...region, ...limitReason("packs")];
  return {
    coins: { allowed: coins.length === 0, reasons: coins },
    packs: { allowed: packs.length === 0, reasons: packs },
    country: setting ?? fromRequest,
    paused,
  };
}
