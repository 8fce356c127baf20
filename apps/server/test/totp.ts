/**
 * A TOTP code belongs to a 30-second step of the wall clock, and the server accepts the step before
 * and after its own. A test that sends the previous step's code (so that the next code is new) must
 * not make it in the last moment of a step: checked after the step turns, it is two steps old and
 * refused (seen once in CI). This waits out that moment: at most 2 s, in about one run in fifteen.
 */
export async function awayFromStepEdge(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 2_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
