/**
 * Poll `ok` every `everyMs` until it answers something truthy or `ms` pass; its last answer, for
 * the test to expect (a falsy one says what was still missing).
 */
export async function until<T>(ok: () => T | Promise<T>, ms = 20_000, everyMs = 50): Promise<T> {
  let last = await ok();
  for (const end = Date.now() + ms; !last && Date.now() < end; last = await ok())
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  return last;
}
