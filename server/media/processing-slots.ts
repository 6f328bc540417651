/**
 * At most `slots` jobs at once, the others waiting their turn in order. Decoding a
 * large image takes a core and up to a couple of hundred MB: five uploads at once
 * must not take every core from the pages, nor five times the memory.
 */
export function createProcessingSlots(slots: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(job: () => Promise<T>): Promise<T> {
    if (running < slots) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      // The slot passes straight to the next job in line, or is given back.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
