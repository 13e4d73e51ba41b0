import { LIVE_FIXTURES } from "@/lib/features/live/service";
import { requireStaff } from "../_lib/gate";
import { first, Notice, styles, type SearchParams } from "../_lib/ui";
import { replayAction } from "./actions";

// Live match centre (lib/features/live): replay a provider feed through the live events webhook's own service, a pasted batch
// or a fixture for a game. Replayed events are idempotent by their ids like the provider's; each replay is audited.

const ERRORS: Record<string, string> = {
  confirm: "Type REPLAY to confirm; nothing was replayed.",
  feed: "The feed is not a valid batch of live events (JSON: { events: [...] } or an array of events); nothing was replayed.",
  game: "No such game; nothing was replayed.",
  gameId: "Name the game to replay the fixture for; nothing was replayed.",
};

export default async function LivePage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/live", "admin");
  const sp = await searchParams;
  const error = first(sp.error);
  return (
    <>
      <h1>Live</h1>
      <p>
        Replay a data provider feed: the events go through the same service as <code>POST /api/webhooks/live-events</code> (an event already received is a
        no-op; the game&apos;s status, score, timeline and streams follow).
      </p>
      {error ? <Notice kind="error">{ERRORS[error] ?? "Something went wrong; nothing was replayed."}</Notice> : null}
      {first(sp.done) ? (
        <Notice>
          <span data-testid="replay-result">
            {`Replayed: ${first(sp.applied)} applied, ${first(sp.duplicates)} already received, ${first(sp.rejected)} refused.`}
            {first(sp.games) ? ` Games: ${first(sp.games)}.` : ""}
          </span>
        </Notice>
      ) : null}
      <form action={replayAction} aria-label="Replay a feed" style={{ display: "grid", gap: 10, maxWidth: 720 }}>
        <fieldset style={{ border: "none", padding: 0 }}>
          <legend>Source</legend>
          <label>
            <input type="radio" name="source" value="paste" defaultChecked /> Pasted batch
          </label>{" "}
          <label>
            <input type="radio" name="source" value="fixture" /> Fixture
          </label>
        </fieldset>
        <label>
          Batch (JSON)
          <textarea name="feed" rows={12} spellCheck={false} style={{ ...styles.input, width: "100%", fontFamily: "monospace" }} />
        </label>
        <label>
          Fixture{" "}
          <select name="fixture" style={styles.input}>
            {LIVE_FIXTURES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label>
          Game id (for a fixture) <input name="gameId" autoComplete="off" style={styles.input} />
        </label>
        <label>
          Type REPLAY to confirm <input name="confirm" required autoComplete="off" spellCheck={false} style={styles.input} />
        </label>
        <div>
          <button type="submit" style={styles.button}>
            Replay
          </button>
        </div>
      </form>
    </>
  );
}
