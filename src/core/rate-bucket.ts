/**
 * A token bucket: `take()` is true at most `perSecond` times a second on
 * average, with bursts of up to `burst`. Real time (not the service clock):
 * it guards a third party's rate limit, which runs on real time.
 */
export function rateBucket(perSecond: number, burst: number, now: () => number = () => performance.now()) {
  let tokens = burst;
  let at = now();
  return {
    take(): boolean {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - at) / 1000) * perSecond);
      at = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
