import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { MAX_QUERY_LENGTH, SEARCH_LIMIT } from '../../core/catalog/discovery/discovery-input.js';
import type { RestEnv } from '../env.js';
import { showSummaryShape } from '../../wire/catalog-shapes.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';

const searchRoute = createRoute({
  method: 'get',
  path: '/search',
  operationId: 'searchShows',
  tags: ['Discovery'],
  summary: 'Find shows by name, podcast-directory link or RSS feed URL (0 credits)',
  description: [
    `Names are matched fuzzily: typos, missing apostrophes, accents and run-together words still find the show ("lennys podcast", "dhunplugged", "joe rogen"); results are ranked by relevance blended with popularity, at most ${SEARCH_LIMIT}.`,
    'Directory links resolve through the id or feed they carry: Apple Podcasts (`podcasts.apple.com/…/id123`, `itunes.apple.com/…id123`), Podcast Index (`podcastindex.org/podcast/123`), Overcast (`overcast.fm/itunes123/…`), the iTunes-id links of Pocket Casts, Castro and Castbox, and links of any directory that carry the feed URL.',
    'An RSS feed URL Podtext does not have yet is read and added on the spot. Streaming-service links (Spotify, Amazon Music, YouTube, iHeartRadio, Deezer, Pandora, TuneIn, Audible, …) are refused with `unsupported_link`: those services do not publish the RSS feed.',
  ].join('\n\n'),
  security: keyed,
 
  request: {
    query: z.object({
      q: z.string().openapi({ minLength: 1, maxLength: MAX_QUERY_LENGTH, description: `A show name, a podcast-directory link or an RSS feed URL; at most ${MAX_QUERY_LENGTH} characters.`, example: 'lennys podcast' }),
    }),
  },
  responses: {
    200: ok(z.object({ query: z.string(), shows: z.array(showSummaryShape.zod) }), 'Matching shows, best first'),
    ...errors({
      ...keyedErrors,
      400: `\`invalid_request\`: \`q\` missing, empty or longer than ${MAX_QUERY_LENGTH} characters, or a feed URL that cannot be added (not a podcast feed, a refused address, or its server failing; the message says which). \`unsupported_link\`: a streaming-service link, or a directory link naming the show only by that directory's own id.`,
      502: '`upstream_failed`: a directory link whose directory (Apple\'s lookup) could not be asked just now; try again later.',
      503: `\`unavailable\`: the database is unreachable, or a new feed's server is busy with Podtext's other reads of it; try again after \`Retry-After\` seconds.`,
    }),
  },
});

export function registerSearchRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(searchRoute, async (c) => {
    const services = c.get('services');
    const result = await services.discovery.search(c.get('actor'), c.req.valid('query').q);
    return c.json({ query: result.query, shows: result.shows.map((s) => showSummaryShape.toWire(s, services)) }, 200);
  });
}
