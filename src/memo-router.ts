import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Method and path pairs whose match is remembered. Default: 4,096. */
export const ROUTE_MEMO_SIZE = 4096;

/**
 * Hono's router with the answers for recent method and path pairs
 * remembered. Podtext's routes need Hono's trie router (`/shows/lookup` beside
 * `/shows/{feed_id}` is more than its regular-expression router takes), whose
 * match walks the tree on every call: several microseconds on the hottest
 * paths, a tenth of a warm `GET /me`. Routes are fixed once serving starts,
 * so a match never changes; the memo is bounded, oldest first out.
 */
export class MemoRouter<T> implements Router<T> {
  readonly name = 'MemoRouter';
  readonly #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  readonly #memo = new Map<string, Result<T>>();

  constructor(private readonly size = ROUTE_MEMO_SIZE) {}

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler);
  }

  /** Pairs remembered now. */
  get remembered(): number {
    return this.#memo.size;
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let found = this.#memo.get(key);
    if (found === undefined) {
      found = this.#inner.match(method, path);
      if (this.#memo.size >= this.size) this.#memo.delete(this.#memo.keys().next().value!);
      this.#memo.set(key, found);
    }
    return found;
  }
}
