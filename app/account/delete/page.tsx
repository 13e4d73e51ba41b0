import { getDeletion, previewDeletion } from "@/lib/core/accounts/service";
import { db } from "@/lib/db/client";
import { ACCOUNT_DELETE_PATH, requireFan } from "../_lib/session";
import { cancelAction, scheduleAction } from "./actions";

// Delete your account (Google Play's web link for account deletion): for a signed-in browser, the same rules as
// POST/GET/DELETE /api/v1/me/deletion. Step one explains; the confirmation step states the date and the coins that
// will be forfeited and needs a ticked box; a scheduled deletion shows its date and can be cancelled.

export const dynamic = "force-dynamic";
export const metadata = { title: "Delete your account · Fan Engagement", robots: { index: false, follow: false } };

const coinsText = (minor: number, decimals: number) =>
  `${(minor / 10 ** decimals).toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })} coins`;
const dateText = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }) + " UTC";

const MESSAGES: Record<string, string> = {
  scheduled: "Your account is scheduled for deletion.",
  cancelled: "The deletion is cancelled: your account stays.",
  unconfirmed: "Tick the box to confirm that your coins will be forfeited.",
  in_progress: "Your account is being deleted right now: it can no longer be cancelled.",
  none: "There was no scheduled deletion to cancel.",
};

const box = { maxWidth: 560, margin: "48px auto", padding: "0 24px", lineHeight: 1.5 } as const;
const danger = { background: "#b42318", color: "#fff", border: 0, borderRadius: 6, padding: "10px 16px", fontSize: 16, cursor: "pointer" } as const;
const plain = { background: "#fff", color: "#1a1a1a", border: "1px solid #999", borderRadius: 6, padding: "10px 16px", fontSize: 16 } as const;

export default async function DeleteAccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { userId } = await requireFan(ACCOUNT_DELETE_PATH);
  const q = await searchParams;
  const one = (k: string) => (typeof q[k] === "string" ? (q[k] as string) : undefined);
  const notice = MESSAGES[one("error") ?? one("done") ?? ""];
  const { deletion } = await getDeletion(db, userId);

  if (deletion) {
    return (
      <main style={box}>
        <h1>Your account is scheduled for deletion</h1>
        {notice ? <p role="status">{notice}</p> : null}
        <p data-testid="scheduled-for">
          It will be deleted on <strong>{dateText(deletion.scheduledFor)}</strong>.
        </p>
        <p data-testid="forfeit">
          <strong>{coinsText(deletion.coins.forfeited, deletion.coins.decimals)}</strong> will be forfeited then. Until that date your account works, but you
          cannot list, bid, offer, buy or trade.
        </p>
        <form action={cancelAction}>
          <button type="submit" style={plain}>
            Cancel the deletion
          </button>
        </form>
      </main>
    );
  }

  const preview = await previewDeletion(db, userId);
  if (one("step") === "confirm") {
    return (
      <main style={box}>
        <h1>Confirm the deletion of your account</h1>
        {notice ? (
          <p role="alert" style={{ color: "#b42318" }}>
            {notice}
          </p>
        ) : null}
        <p data-testid="scheduled-for">
          Your account will be deleted on <strong>{dateText(preview.scheduledFor)}</strong>. You can cancel until then.
        </p>
        <p data-testid="forfeit">
          Your remaining <strong>{coinsText(preview.coins.forfeited, preview.coins.decimals)}</strong> will be forfeited: they are not refunded or transferred.
        </p>
        <form action={scheduleAction}>
          <p>
            <label>
              <input type="checkbox" name="confirm" value="yes" /> I understand that my account, my posts and my{" "}
              {coinsText(preview.coins.forfeited, preview.coins.decimals)} will be gone.
            </label>
          </p>
          <p style={{ display: "flex", gap: 12 }}>
            <button type="submit" style={danger}>
              Delete my account
            </button>
            <a href={ACCOUNT_DELETE_PATH} style={{ alignSelf: "center" }}>
              Keep my account
            </a>
          </p>
        </form>
      </main>
    );
  }

  return (
    <main style={box}>
      <h1>Delete your account</h1>
      {notice ? <p role="status">{notice}</p> : null}
      <p>
        Deleting your account removes your profile, posts, comments, reactions, poll votes, uploads, follows and devices. Your handle stays reserved and cannot
        be taken again. Sales and transfers you took part in stay in the other fans&apos; histories, without your name.
      </p>
      <p>
        The deletion happens {Math.round((Date.parse(preview.scheduledFor) - Date.parse(preview.requestedAt)) / 86_400_000)} days after you confirm; you can
        cancel it until then.
      </p>
      <p>
        <a href={`${ACCOUNT_DELETE_PATH}?step=confirm`} style={{ ...danger, textDecoration: "none", display: "inline-block" }}>
          Continue
        </a>
      </p>
    </main>
  );
}
