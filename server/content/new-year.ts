/**
 * Calls back at every turn of the year in the server's time zone (the year the public
 * footer shows is the server's `new Date().getFullYear()`), until stopped. Timers hold
 * at most 2^31 − 1 ms (about 24.8 days), so a longer wait is made of several.
 */
export function atEveryNewYear(callback: () => void, now: () => number = Date.now): () => void {
  const MAX_TIMER_MS = 2 ** 31 - 1;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const arm = () => {
    const current = new Date(now());
    const nextYear = new Date(current.getFullYear() + 1, 0, 1).getTime();
    const wait = nextYear - current.getTime();
    timer = setTimeout(
      () => {
        if (stopped) return;
        if (now() >= nextYear) callback();
        arm();
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    // The turn of the year never keeps the process alive on its own.
    timer.unref();
  };

  arm();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
