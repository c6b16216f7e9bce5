import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Schema = { $ref?: string; example?: unknown; type?: string; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[] };

const OPENAPI = JSON.parse(readFileSync('test/fixtures/podcastindex/pi-api-openapi.json', 'utf8')) as {
  components: { schemas: Record<string, Schema>; responses: Record<string, { content: { 'application/json': { schema: Schema; example?: unknown } } }> };
};

/** A value built from the per-field `example`s of a schema in Podcast Index's own OpenAPI document. */
export function exampleOf(schema: Schema): unknown {
  if (schema.$ref) return exampleOf(OPENAPI.components.schemas[schema.$ref.split('/').at(-1)!]);
  if (schema.example !== undefined) return schema.example;
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s) as object));
  if (schema.properties) return Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, exampleOf(v)]));
  if (schema.type === 'array' && schema.items) return [exampleOf(schema.items)];
  return null;
}

/** The documented success body of a response, e.g. `podcasts_byfeedurl`. */
export function documentedResponse(name: string): Record<string, unknown> {
  return exampleOf(OPENAPI.components.responses[name].content['application/json'].schema) as Record<string, unknown>;
}

/** The documented 401 body. */
export const UNAUTHORIZED = OPENAPI.components.responses['401'].content['application/json'].example as string;

export const EPISODES_743229 = readFileSync('test/fixtures/podcastindex/episodes-byfeedid-743229.json');

/**
 * A stand-in for api.podcastindex.org/api/1.0: checks the documented
 * authentication (X-Auth-Key, X-Auth-Date within 3 minutes, Authorization =
 * sha1(key + secret + date), a User-Agent) and replays documented bodies.
 * `feeds` maps feed URLs to the feed objects the index knows.
 */
export function podcastIndexStandIn(key: string, secret: string, feeds: Map<string, Record<string, unknown>>, now: () => Date) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    const date = String(req.headers['x-auth-date'] ?? '');
    const expected = createHash('sha1').update(key + secret + date).digest('hex');
    const fresh = Math.abs(Number(date) - now().getTime() / 1000) <= 180;
    if (req.headers['x-auth-key'] !== key || req.headers.authorization !== expected || !fresh || !req.headers['user-agent']) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(UNAUTHORIZED));
      return;
    }
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const path = url.pathname.replace(/^\/api\/1\.0/, '');
    const none = { status: 'true', feed: [], description: 'No feeds match this criteria' };
    const list = [...feeds.values()];
    switch (path) {
      case '/podcasts/byfeedurl': {
        const feed = feeds.get(url.searchParams.get('url') ?? '');
        json(feed ? { ...documentedResponse('podcasts_byfeedurl'), query: { url: url.searchParams.get('url') }, feed } : none);
        return;
      }
      case '/podcasts/byfeedid': {
        const feed = list.find((f) => String(f.id) === url.searchParams.get('id'));
        json(feed ? { ...documentedResponse('podcasts_byfeedid'), query: { id: url.searchParams.get('id') }, feed } : none);
        return;
      }
      case '/podcasts/byitunesid': {
        const feed = list.find((f) => String(f.itunesId) === url.searchParams.get('id')?.replace(/^id/, ''));
        json(feed ? { ...documentedResponse('podcasts_byitunesid'), feed } : none);
        return;
      }
      case '/episodes/byfeedid':
        if (url.searchParams.get('id') === '743229') res.writeHead(200, { 'content-type': 'application/json' }).end(EPISODES_743229);
        else json({ status: 'true', items: [], count: 0, query: url.searchParams.get('id'), description: 'No episodes match this criteria' });
        return;
      default:
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'false', description: 'Invalid parameters' }));
    }
  };
}
