/**
 * The sliding-window limiter counts in windows aligned to the clock (Date.now() / window) and weights the previous
 * one, so a burst that crosses a window edge can find a token come back. Tests that spend a budget and expect the
 * refusal start with at least `marginMs` of the current window left; the answer is the window's index.
 */
export async function awayFromWindowEdge(windowMs = 60_000, marginMs = 15_000): Promise<number> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
  return Math.floor(Date.now() / windowMs);
}
