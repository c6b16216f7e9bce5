import { fullScore, popularityWeight, ranking, shortlistScore } from './search-ranking.js';
import { trigramsOf } from './trigrams.js';

/** What the index keeps of a show. */
export interface IndexedShow {
  /** feed_id; below 2^53, so a plain number. */
  id: number;
  /** `shows.search_name`. */
  name: string;
  /** `shows.popularity` (Podcast Index scale). */
  popularity: number;
}

export interface RankedShow {
  id: number;
  score: number;
}

/**
 * An in-memory trigram index over show titles. Searching it takes about a
 * millisecond at 100,000 shows, where pg_trgm on the embedded database took
 * tens to thousands (WebAssembly, and one connection that every other request
 * waits on meanwhile). Memory: about 250 bytes per show once frozen.
 *
 * Posting lists hold slots in ascending order, in two parts: a frozen part,
 * all lists in one array (no per-list overhead or growth slack), and the
 * slots appended since. `build` and `freeze` merge them. A changed show gets
 * a new slot and its old slot is marked dead; the index rebuilds itself when
 * dead slots pile up.
 */
export function createNameIndex() {
  let capacity = 0;
  let ids = new Float64Array(0);
  let pops = new Float32Array(0);
  let rawPopularity = new Float64Array(0);
  let sizes = new Uint16Array(0);
  let alive = new Uint8Array(0);
  let counts = new Uint16Array(0);
  let reached = new Int32Array(0);
  let names: string[] = [];
  let slots = 0;
  let dead = 0;
  let slotOf = new Map<number, number>();
  let trigramIds = new Map<string, number>();
  // Frozen postings of trigram t: frozen[start[t] .. start[t + 1]).
  let start = new Int32Array(1);
  let frozen = new Int32Array(0);
  // Slots posted since the last freeze, per trigram.
  let appended: (Int32Array | undefined)[] = [];
  let appendedLength: number[] = [];
  let appendedTotal = 0;

  function reset(size = 0): void {
    capacity = 0;
    ids = new Float64Array(0);
    pops = new Float32Array(0);
    rawPopularity = new Float64Array(0);
    sizes = new Uint16Array(0);
    alive = new Uint8Array(0);
    names = [];
    slots = 0;
    dead = 0;
    slotOf = new Map();
    trigramIds = new Map();
    start = new Int32Array(1);
    frozen = new Int32Array(0);
    appended = [];
    appendedLength = [];
    appendedTotal = 0;
    if (size) grow(size);
  }

  function grow(atLeast = 0): void {
    const next = Math.max(1024, capacity * 2, atLeast);
    const copy = <T extends Float64Array | Float32Array | Uint16Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(next);
      b.set(a);
      return b;
    };
    ids = copy(ids, (n) => new Float64Array(n));
    pops = copy(pops, (n) => new Float32Array(n));
    rawPopularity = copy(rawPopularity, (n) => new Float64Array(n));
    sizes = copy(sizes, (n) => new Uint16Array(n));
    alive = copy(alive, (n) => new Uint8Array(n));
    counts = new Uint16Array(next);
    reached = new Int32Array(next);
    capacity = next;
  }

  function trigramId(trigram: string): number {
    let tid = trigramIds.get(trigram);
    if (tid === undefined) {
      tid = trigramIds.size;
      trigramIds.set(trigram, tid);
    }
    return tid;
  }

  function frozenLength(tid: number): number {
    return tid + 1 < start.length ? start[tid + 1]! - start[tid]! : 0;
  }

  function postingLength(tid: number): number {
    return frozenLength(tid) + (appendedLength[tid] ?? 0);
  }

  function post(tid: number, slot: number): void {
    let list = appended[tid];
    const len = appendedLength[tid] ?? 0;
    if (!list || len === list.length) {
      const bigger = new Int32Array(Math.max(4, len * 2));
      if (list) bigger.set(list);
      appended[tid] = list = bigger;
    }
    list[len] = slot;
    appendedLength[tid] = len + 1;
    appendedTotal++;
  }

  /** Takes a show into a new slot; its trigrams are posted by the caller. */
  function place(show: IndexedShow, trigramCount: number): number {
    if (slots === capacity) grow();
    const slot = slots++;
    ids[slot] = show.id;
    pops[slot] = popularityWeight(show.popularity);
    rawPopularity[slot] = show.popularity;
    sizes[slot] = Math.min(trigramCount, 65_535);
    alive[slot] = 1;
    names[slot] = show.name;
    slotOf.set(show.id, slot);
    return slot;
  }

  function add(show: IndexedShow): void {
    const trigrams = trigramsOf(show.name);
    const slot = place(show, trigrams.length);
    for (const t of trigrams) post(trigramId(t), slot);
    if (appendedTotal > 50_000 && appendedTotal > frozen.length / 4) freeze();
  }

  /** Merges the appended postings into the frozen array. Lists stay ascending: appended slots are newer. */
  function freeze(): void {
    const lists = trigramIds.size;
    const nextStart = new Int32Array(lists + 1);
    for (let t = 0; t < lists; t++) nextStart[t + 1] = nextStart[t]! + postingLength(t);
    const next = new Int32Array(nextStart[lists]!);
    for (let t = 0; t < lists; t++) {
      let at = nextStart[t]!;
      if (t + 1 < start.length) {
        next.set(frozen.subarray(start[t]!, start[t + 1]!), at);
        at += frozenLength(t);
      }
      const more = appended[t];
      if (more) next.set(more.subarray(0, appendedLength[t]!), at);
    }
    start = nextStart;
    frozen = next;
    appended = [];
    appendedLength = [];
    appendedTotal = 0;
  }

  /** Replaces everything with `shows`, posting lists counted first and then filled straight into the frozen array. */
  function build(shows: readonly IndexedShow[]): void {
    reset(shows.length);
    // Every show's trigram ids, end to end: one array, not one per show.
    let flat = new Int32Array(shows.length * 24 + 1024);
    let used = 0;
    const lengths: number[] = [];
    for (const show of shows) {
      if (!show.name) continue;
      if (slotOf.has(show.id)) kill(show.id);
      const trigrams = trigramsOf(show.name);
      place(show, trigrams.length);
      if (used + trigrams.length + 1 > flat.length) {
        const bigger = new Int32Array(flat.length * 2);
        bigger.set(flat);
        flat = bigger;
      }
      flat[used++] = trigrams.length;
      for (const t of trigrams) {
        const tid = trigramId(t);
        flat[used++] = tid;
        lengths[tid] = (lengths[tid] ?? 0) + 1;
      }
    }
    const lists = trigramIds.size;
    start = new Int32Array(lists + 1);
    for (let t = 0; t < lists; t++) start[t + 1] = start[t]! + lengths[t]!;
    frozen = new Int32Array(start[lists]!);
    const fill = start.slice(0, lists);
    for (let i = 0, slot = 0; i < used; slot++) {
      const end = i + 1 + flat[i]!;
      for (i++; i < end; i++) frozen[fill[flat[i]!]!++] = slot;
    }
  }

  function kill(id: number): void {
    const slot = slotOf.get(id);
    if (slot === undefined) return;
    alive[slot] = 0;
    slotOf.delete(id);
    dead++;
  }

  function compactIfNeeded(): void {
    if (dead < 10_000 || dead < (slots - dead) / 3) return;
    const live: IndexedShow[] = [];
    for (let s = 0; s < slots; s++) if (alive[s]) live.push({ id: ids[s]!, name: names[s]!, popularity: rawPopularity[s]! });
    build(live);
  }

  return {
    /** Shows searchable now. */
    get size(): number {
      return slots - dead;
    },

    /** Replaces the whole index with `shows` (a full load). */
    build(shows: readonly IndexedShow[]): void {
      build(shows);
    },

    /** Adds or replaces a show; a show with an empty name is removed (nothing to match). */
    upsert(show: IndexedShow): void {
      const slot = slotOf.get(show.id);
      if (slot !== undefined && names[slot] === show.name && rawPopularity[slot] === show.popularity) return;
      kill(show.id);
      if (show.name) add(show);
      compactIfNeeded();
    },

    remove(id: number): void {
      kill(id);
      compactIfNeeded();
    },

    /** Forgets every show. */
    clear(): void {
      reset();
    },

    /**
     * The best `limit` shows for a search-key name, best first; see
     * `ranking` for the formula. Every list of the query's trigrams is read
     * start to end: sequential reads beat skipping through them by binary
     * search, which misses the processor's caches at every step.
     */
    search(name: string, compact: string, limit: number): RankedShow[] {
      const trigrams = trigramsOf(name);
      const q = trigrams.length;
      if (!q) return [];
      const minHits = Math.max(1, Math.ceil(ranking.minShare * q));
      // A slot is noted once, when its count reaches minHits: the pass after
      // reads only those (a few percent of the slots touched), and the counts
      // are cleared with one fill.
      const c = counts;
      const candidates = reached;
      let n = 0;
      for (const t of trigrams) {
        const tid = trigramIds.get(t);
        if (tid === undefined) continue;
        if (tid + 1 < start.length) {
          const f = frozen;
          for (let i = start[tid]!, end = start[tid + 1]!; i < end; i++) {
            const s = f[i]!;
            if (++c[s] === minHits) candidates[n++] = s;
          }
        }
        const more = appended[tid];
        if (more) {
          for (let i = 0, end = appendedLength[tid]!; i < end; i++) {
            const s = more[i]!;
            if (++c[s] === minHits) candidates[n++] = s;
          }
        }
      }
      const shortlist = new Shortlist(ranking.shortlist);
      // The shortlist score is at most hits/q + the popularity weight (cov <= rel,
      // popularity weight <= 1): once the shortlist is full, a show needs more
      // hits than its floor allows to get in, and the rest are not scored.
      let bar = minHits;
      for (let i = 0; i < n; i++) {
        const s = candidates[i]!;
        const hits = c[s]!;
        if (hits < bar || !alive[s]) continue;
        if (shortlist.offer(s, shortlistScore(hits, q, sizes[s]!, pops[s]!), hits)) {
          bar = Math.max(minHits, Math.ceil((shortlist.floor - ranking.popularity) * q - 1e-9));
        }
      }
      c.fill(0, 0, slots);
      const query = { name, compact, trigrams: q };
      return shortlist
        .entries()
        .map(({ slot, hits }) => ({ slot, score: fullScore(query, names[slot]!, hits, sizes[slot]!, pops[slot]!) }))
        .sort((a, b) => b.score - a.score || pops[b.slot]! - pops[a.slot]! || ids[a.slot]! - ids[b.slot]!)
        .slice(0, limit)
        .map(({ slot, score }) => ({ id: ids[slot]!, score }));
    },
  };
}

export type NameIndex = ReturnType<typeof createNameIndex>;

/** Keeps the `size` best-scoring entries offered (a min-heap on score). */
class Shortlist {
  private readonly slots: number[] = [];
  private readonly scores: number[] = [];
  private readonly hits: number[] = [];
  constructor(private readonly size: number) {}

  /** The lowest score kept once full; -Infinity before. */
  get floor(): number {
    return this.slots.length < this.size ? -Infinity : this.scores[0]!;
  }

  /** Offers an entry; true when it was kept. */
  offer(slot: number, score: number, hits: number): boolean {
    if (this.slots.length < this.size) {
      this.slots.push(slot);
      this.scores.push(score);
      this.hits.push(hits);
      this.up(this.slots.length - 1);
      return true;
    }
    if (score <= this.scores[0]!) return false;
    this.slots[0] = slot;
    this.scores[0] = score;
    this.hits[0] = hits;
    this.down(0);
    return true;
  }

  entries(): { slot: number; hits: number }[] {
    return this.slots.map((slot, i) => ({ slot, hits: this.hits[i]! }));
  }

  private swap(a: number, b: number): void {
    const { slots, scores, hits } = this;
    const slot = slots[a]!;
    slots[a] = slots[b]!;
    slots[b] = slot;
    const score = scores[a]!;
    scores[a] = scores[b]!;
    scores[b] = score;
    const hit = hits[a]!;
    hits[a] = hits[b]!;
    hits[b] = hit;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.scores[parent]! <= this.scores[i]!) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.scores.length && this.scores[l]! < this.scores[m]!) m = l;
      if (r < this.scores.length && this.scores[r]! < this.scores[m]!) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
