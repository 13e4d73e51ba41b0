import { db } from "../../db/client";
import { registerFeatureCheck } from "../../http/features";
import { pausedReason } from "./service";

// The kill-switch checker the pipeline asks for routes marked `feature` (lib/http/features.ts): the process's cached
// config, no query per request. Registered at start-up (lib/startup.ts) and on import.

export function registerConfigGate(): void {
  registerFeatureCheck((feature, user) => pausedReason(db, feature, user));
}

registerConfigGate();
