import { assertVerificationKey } from "./auth/tokens";
import { env } from "./env";
import { identityProvider } from "./identity/provider";

/**
 * Start-up checks (instrumentation.ts, Node.js runtime): a configuration error stops the process with a message
 * naming what is wrong, instead of surfacing as 500s on the first request. Next.js itself only logs a failed
 * instrumentation hook and goes on serving, hence the exit.
 */
export async function checkStartup(): Promise<void> {
  try {
    env();
    await assertVerificationKey();
    if (env().NODE_ENV === "production") identityProvider();
  } catch (error) {
    console.error(`Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
