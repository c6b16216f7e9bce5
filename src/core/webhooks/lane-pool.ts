/**
 * Up to `size` lanes, each taking one piece of work after another until none
 * is left. `kick` starts one lane; a lane that finds work starts another
 * before doing it, so a backlog fans out to `size` at once while a single due
 * item costs one empty look, not `size`. A slow item holds only its own lane.
 */
export interface LanePool {
  /** Starts a lane unless `size` are already running. */
  kick(): void;
  /** Resolves once no lane is running; rejects with the first lane error not given to `onError`. */
  idle(): Promise<void>;
  /** Items done since the pool was made. */
  done(): number;
}

export interface LanePoolOptions {
  /** True once no new item may be taken (shutting down). Default: never. */
  stopped?: () => boolean;
  /** Receives lane errors as they happen; without it, `idle` rejects with the first. */
  onError?: (err: unknown) => void;
}

/**
 * @param take does one piece of work, calling `claimed` as soon as it holds
 *   one (before the slow part); resolves false when nothing was due.
 */
export function createLanePool(size: number, take: (claimed: () => void) => Promise<boolean>, options: LanePoolOptions = {}): LanePool {
  const stopped = options.stopped ?? (() => false);
  let active = 0;
  let count = 0;
  let error: unknown;
  let waiters: (() => void)[] = [];

  function kick(): void {
    if (active >= size || stopped()) return;
    active++;
    void (async () => {
      try {
        while (!stopped() && (await take(kick))) count++;
      } catch (err) {
        if (options.onError) options.onError(err);
        else error ??= err;
      } finally {
        active--;
        if (active === 0) {
          const wake = waiters;
          waiters = [];
          for (const w of wake) w();
        }
      }
    })();
  }

  return {
    kick,
    done: () => count,
    async idle() {
      if (active > 0) await new Promise<void>((resolve) => waiters.push(resolve));
      const err = error;
      error = undefined;
      if (err !== undefined) throw err;
    },
  };
}
