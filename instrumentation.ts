// Runs once when the server starts (see lib/startup.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkStartup } = await import("./lib/startup");
  await checkStartup();
}
