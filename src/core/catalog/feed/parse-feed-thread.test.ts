import { afterAll, describe, expect, it } from 'vitest';
import { parseFeed } from './parse-feed.js';
import { closeFeedParser, parseFeedOffThread } from './parse-feed-thread.js';
import { FeedParseError } from './feed-parse-error.js';
import { bigFeed } from '../../../../test/support/big-feed.js';

describe('parsing a feed off the API thread', () => {
  afterAll(() => closeFeedParser());

  it('gives what parseFeed gives while the event loop keeps turning', async () => {
    const body = bigFeed(12_000);
    expect(body.length).toBeGreaterThan(5_000_000);
    let turns = 0;
    let done = false;
    const parsing = parseFeedOffThread(body, { maxItems: 1000 }).finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    const feed = await parsing;
    // On this thread the parse would be one synchronous call: the loop could not turn during it.
    expect(turns).toBeGreaterThan(20);
    expect(feed).toEqual(parseFeed(body, { maxItems: 1000 }));
    expect(feed.episodes[0]!.title).toBe('Episode 11999');
  });

  it('refuses what is not a feed with the same error, and parses the next one', async () => {
    await expect(parseFeedOffThread(Buffer.from('<html><body>hi</body></html>'))).rejects.toBeInstanceOf(FeedParseError);
    await expect(parseFeedOffThread(Buffer.from('<!DOCTYPE x [<!ENTITY a "aaaa">]><rss/>'))).rejects.toThrow(/entit/i);
    expect((await parseFeedOffThread(bigFeed(3))).episodes).toHaveLength(3);
  });

  it('a close while feeds wait lets them finish', async () => {
    const a = parseFeedOffThread(bigFeed(2000));
    const b = parseFeedOffThread(bigFeed(5));
    await closeFeedParser();
    expect((await a).episodes).toHaveLength(1000);
    expect((await b).episodes).toHaveLength(5);
  });
});
