// Runs once when the server starts: configuration errors stop start-up with a message naming what is wrong,
// instead of surfacing as 500s on the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  env();
  const { assertVerificationKey } = await import("./lib/auth/tokens");
  await assertVerificationKey();
}
