import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for this process. Imported
 * first by `boot.ts`, before anything is built.
 *
 * V8 allocates objects from a code site straight into the old generation once
 * most of them have outlived a young collection. Start-up (migrations, the
 * search index, seeding) teaches it that about sites a warm request also goes
 * through; from then on each request leaves an old object pointing at its
 * young ones (Node's request and response, Hono's context, the door's
 * admission). A young collection must keep whatever old objects point at, so
 * every request's objects were copied twice and promoted, and freed only by a
 * full collection: 2 MB promoted and 3 ms per young collection, 16–22 % of
 * the CPU of a warm `GET /me`, against 0.5 ms and 3.5 % without it
 * (BENCHMARKS.md). Requests are short-lived by nature; nothing Podtext keeps
 * for long is allocated often enough for pretenuring to pay.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
