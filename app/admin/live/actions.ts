"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/kernel/errors";
import { fixtureFeed, parseFeed, replayFeed } from "@/lib/features/live/service";
import type { LiveEventInput } from "@/lib/features/live/schemas";
import { actorOf, requireStaffAction } from "../_lib/gate";
import { field, resultRedirects } from "../_lib/form";

// The live page's replay: a pasted batch or a fixture for a game, confirmed by typing REPLAY, run through the
// webhook's own service (lib/features/live ingestBatch) and audited (live.replay).

const { back } = resultRedirects("/admin/live");

export async function replayAction(form: FormData) {
  const staff = await requireStaffAction("admin");
  if (field(form, "confirm")?.trim() !== "REPLAY") redirect(back({ error: "confirm" }));
  const source = field(form, "source");
  let events: LiveEventInput[];
  let label: string;
  let result;
  try {
    if (source === "fixture") {
      const gameId = field(form, "gameId")?.trim() ?? "";
      const fixture = field(form, "fixture") ?? "";
      if (!gameId) redirect(back({ error: "gameId" }));
      events = await fixtureFeed(db, fixture, gameId);
      label = `fixture:${fixture}:${gameId}`;
    } else {
      events = parseFeed(field(form, "feed") ?? "");
      label = `pasted:${[...new Set(events.map((e) => e.gameId))].join(",")}`.slice(0, 200);
    }
    result = await replayFeed(db, actorOf(staff), events, label);
  } catch (error) {
    if (error instanceof DomainError) redirect(back({ error: error.code === "NOT_FOUND" ? "game" : "feed" }));
    throw error;
  }
  redirect(
    back({
      done: "1",
      applied: String(result.applied),
      duplicates: String(result.duplicates),
      rejected: String(result.rejected.length),
      games: result.games.map((g) => `${g.id} ${g.status}${g.score ? ` ${g.score.home}-${g.score.away}` : ""}`).join(", "),
    }),
  );
}
