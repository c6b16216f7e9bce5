import { Worker } from 'node:worker_threads';
import { workerModule } from '../../../infra/threads/worker-module.js';
import { FeedParseError } from './feed-parse-error.js';
import type { ParsedFeed } from './feed-types.js';
import type { ParseReply, ParseRequest } from './parse-feed-worker.js';
import { parseFeed, type ParseFeedOptions } from './parse-feed.js';

/** Heap one feed parse may use before it is refused as too large, in MB. Default: 1024. */
const PARSE_HEAP_MB = 1024;
/** An idle parsing thread ends after this long, in ms. Default: 5 s. */
const IDLE_MS = 5_000;

type Waiting = { request: ParseRequest; resolve(feed: ParsedFeed): void; reject(err: Error): void };

let module: URL | null | undefined;
let worker: Worker | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 0;
/** Feeds sent to the thread, in the order it parses them. */
const waiting = new Map<number, Waiting>();

function thread(entry: URL): Worker {
  if (worker) return worker;
  const w = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB } });
  w.unref();
  worker = w;
  w.on('message', (reply: ParseReply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!pending) return;
    if ('feed' in reply) pending.resolve(reply.feed);
    else pending.reject(reply.unreadable ? new FeedParseError(reply.error) : new Error(reply.error));
    if (waiting.size === 0) {
      idle = setTimeout(() => {
        if (worker === w) worker = null;
        void w.terminate();
      }, IDLE_MS).unref();
    }
  });
  w.on('error', (err: Error & { code?: string }) => {
    // The feed being parsed (the oldest sent) is the one that failed.
    const [first] = waiting.values();
    if (!first) return;
    waiting.delete(first.request.id);
    first.reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new FeedParseError('the feed is too large to read') : err);
  });
  w.on('exit', () => {
    // A thread already replaced (idle, or closed) holds no feed: those waiting were sent to the current one.
    if (worker !== w) return;
    worker = null;
    // Feeds still waiting after a failure go to a fresh thread.
    if (waiting.size === 0) return;
    const next = thread(entry);
    for (const pending of waiting.values()) next.postMessage(pending.request);
  });
  return w;
}

/** Ends the parsing thread now (shutdown, tests); a later parse starts a new one. */
export async function closeFeedParser(): Promise<void> {
  if (idle) clearTimeout(idle);
  idle = null;
  const w = worker;
  worker = null;
  if (w && waiting.size === 0) await w.terminate();
  else if (w) worker = w;
}

/**
 * {@link parseFeed} on a worker thread: a feed of many megabytes takes
 * seconds and hundreds of MB to parse, which on the API's thread would hold
 * every other request (and the health probes) that long. One thread, kept
 * while there is work and a few seconds after; feeds queue for it in order. A
 * parse that outgrows its heap is refused as too large, and the feeds after it
 * go to a fresh thread. On this thread when no worker module is at hand.
 */
export function parseFeedOffThread(body: Buffer | Uint8Array, options: ParseFeedOptions = {}): Promise<ParsedFeed> {
  module ??= workerModule(import.meta.url, 'parse-feed-worker');
  if (!module) return Promise.resolve().then(() => parseFeed(body, options));
  if (idle) clearTimeout(idle);
  idle = null;
  const request: ParseRequest = { id: nextId++, body, options };
  return new Promise<ParsedFeed>((resolve, reject) => {
    waiting.set(request.id, { request, resolve, reject });
    thread(module!).postMessage(request);
  });
}
