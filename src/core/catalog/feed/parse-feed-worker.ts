// Worker thread entry: parses feeds (see parse-feed-thread.ts), so a large
// feed never holds the API's event loop.
import { parentPort } from 'node:worker_threads';
import { FeedParseError } from './feed-parse-error.js';
import type { ParsedFeed } from './feed-types.js';
import { parseFeed, type ParseFeedOptions } from './parse-feed.js';

export interface ParseRequest {
  id: number;
  body: Uint8Array;
  options: ParseFeedOptions;
}

export type ParseReply = { id: number; feed: ParsedFeed } | { id: number; error: string; unreadable: boolean };

const port = parentPort!;
port.on('message', (r: ParseRequest) => {
  try {
    port.postMessage({ id: r.id, feed: parseFeed(r.body, r.options) } satisfies ParseReply);
  } catch (err) {
    port.postMessage({ id: r.id, error: (err as Error).message, unreadable: err instanceof FeedParseError } satisfies ParseReply);
  }
});
