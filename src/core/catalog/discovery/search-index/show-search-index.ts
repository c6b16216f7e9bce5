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
 * An in-memory trigram index over show titles. Searching it takes a few
 * milliseconds at 100,000 shows, where pg_trgm on the embedded database
 * took tens to thousands (WebAssembly, and one connection that every other
 * request waits on meanwhile). Memory: about 350 bytes per show (35 MB at
 * 100,000; 1.4 GB for the whole Podcast Index).
 *
 * Updates append: a changed show gets a new slot and its old slot is marked
 * dead; the index rebuilds itself when dead slots pile up.
 */
export function createShowSearchIndex() {
  let capacity = 0;
  let ids = new Float64Array(0);
  let pops = new Float32Array(0);
  let sizes = new Uint16Array(0);
  let alive = new Uint8Array(0);
  let counts = new Uint16Array(0);
  let touched = new Int32Array(0);
  let names: string[] = [];
  let rawPopularity: number[] = [];
  let slots = 0;
  let dead = 0;
  let slotOf = new Map<number, number>();
  let trigramIds = new Map<string, number>();
  let postings: Int32Array[] = [];
  let postingLength: number[] = [];

  function reset(): void {
    capacity = 0;
    ids = new Float64Array(0);
    pops = new Float32Array(0);
    sizes = new Uint16Array(0);
    alive = new Uint8Array(0);
    counts = new Uint16Array(0);
    touched = new Int32Array(0);
    names = [];
    rawPopularity = [];
    slots = 0;
    dead = 0;
    slotOf = new Map();
    trigramIds = new Map();
    postings = [];
    postingLength = [];
  }

  function grow(): void {
    const next = Math.max(1024, capacity * 2);
    const copy = <T extends Float64Array | Float32Array | Uint16Array | Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(next);
      b.set(a);
      return b;
    };
    ids = copy(ids, (n) => new Float64Array(n));
    pops = copy(pops, (n) => new Float32Array(n));
    sizes = copy(sizes, (n) => new Uint16Array(n));
    alive = copy(alive, (n) => new Uint8Array(n));
    counts = new Uint16Array(next);
    touched = new Int32Array(next);
    capacity = next;
  }

  function post(trigram: string, slot: number): void {
    let tid = trigramIds.get(trigram);
    if (tid === undefined) {
      tid = postings.length;
      trigramIds.set(trigram, tid);
      postings.push(new Int32Array(4));
      postingLength.push(0);
    }
    let list = postings[tid]!;
    const len = postingLength[tid]!;
    if (len === list.length) {
      const bigger = new Int32Array(len * 2);
      bigger.set(list);
      postings[tid] = list = bigger;
    }
    list[len] = slot;
    postingLength[tid] = len + 1;
  }

  function kill(id: number): void {
    const slot = slotOf.get(id);
    if (slot === undefined) return;
    alive[slot] = 0;
    slotOf.delete(id);
    dead++;
  }

  function add(show: IndexedShow): void {
    if (slots === capacity) grow();
    const slot = slots++;
    const trigrams = trigramsOf(show.name);
    ids[slot] = show.id;
    pops[slot] = popularityWeight(show.popularity);
    sizes[slot] = Math.min(trigrams.length, 65_535);
    alive[slot] = 1;
    names[slot] = show.name;
    rawPopularity[slot] = show.popularity;
    slotOf.set(show.id, slot);
    for (const t of trigrams) post(t, slot);
  }

  function compactIfNeeded(): void {
    if (dead < 10_000 || dead < (slots - dead) / 3) return;
    const live: IndexedShow[] = [];
    for (let s = 0; s < slots; s++) if (alive[s]) live.push({ id: ids[s]!, name: names[s]!, popularity: rawPopularity[s]! });
    reset();
    for (const show of live) add(show);
  }

  return {
    /** Shows searchable now. */
    get size(): number {
      return slots - dead;
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
    clear: reset,

    /**
     * The best `limit` shows for a search-key name, best first; see
     * `ranking` for the formula.
     */
    search(name: string, compact: string, limit: number): RankedShow[] {
      const trigrams = trigramsOf(name);
      const q = trigrams.length;
      if (!q) return [];
      let n = 0;
      for (const t of trigrams) {
        const tid = trigramIds.get(t);
        if (tid === undefined) continue;
        const list = postings[tid]!;
        const len = postingLength[tid]!;
        for (let i = 0; i < len; i++) {
          const s = list[i]!;
          if (counts[s]++ === 0) touched[n++] = s;
        }
      }
      const minHits = Math.max(1, Math.ceil(ranking.minShare * q));
      const shortlist = new Shortlist(ranking.shortlist);
      for (let i = 0; i < n; i++) {
        const s = touched[i]!;
        const hits = counts[s]!;
        counts[s] = 0;
        if (hits >= minHits && alive[s]) shortlist.offer(s, shortlistScore(hits, q, sizes[s]!, pops[s]!), hits);
      }
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

export type ShowSearchIndex = ReturnType<typeof createShowSearchIndex>;

/** Keeps the `size` best-scoring entries offered (a min-heap on score). */
class Shortlist {
  private readonly slots: number[] = [];
  private readonly scores: number[] = [];
  private readonly hits: number[] = [];
  constructor(private readonly size: number) {}

  offer(slot: number, score: number, hits: number): void {
    if (this.slots.length < this.size) {
      this.slots.push(slot);
      this.scores.push(score);
      this.hits.push(hits);
      this.up(this.slots.length - 1);
    } else if (score > this.scores[0]!) {
      this.slots[0] = slot;
      this.scores[0] = score;
      this.hits[0] = hits;
      this.down(0);
    }
  }

  entries(): { slot: number; hits: number }[] {
    return this.slots.map((slot, i) => ({ slot, hits: this.hits[i]! }));
  }

  private swap(a: number, b: number): void {
    [this.slots[a], this.slots[b]] = [this.slots[b]!, this.slots[a]!];
    [this.scores[a], this.scores[b]] = [this.scores[b]!, this.scores[a]!];
    [this.hits[a], this.hits[b]] = [this.hits[b]!, this.hits[a]!];
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
