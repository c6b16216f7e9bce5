import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Show } from '../../generated/prisma/client.js';
import type { SearchResult } from '../../core/catalog/discovery/search-shows.js';
import type { Trending } from '../../core/catalog/discovery/trending.js';
import { MAX_QUERY_LENGTH, SEARCH_LIMIT, TRENDING_DEFAULT_LANG, TRENDING_LIST } from '../../core/catalog/discovery/discovery-input.js';
import { TRENDING_DOCS } from '../../core/catalog/discovery/trending.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';
import { ShowRef } from './show.js';

// The resolvers below pass a Prisma query, so the service returns whole Show rows.
const ShowSearchResultRef = builder.objectRef<SearchResult>('ShowSearchResult').implement({
  fields: (t) => ({
    query: t.exposeString('query'),
    shows: t.field({ type: [ShowRef], description: `Best first, at most ${SEARCH_LIMIT}.`, resolve: (r) => r.shows as Show[] }),
  }),
});

const TrendingRef = builder.objectRef<Trending>('Trending').implement({
  fields: (t) => ({
    categories: t.exposeStringList('categories'),
    shows: t.field({ type: [ShowRef], resolve: (r) => r.shows as Show[] }),
  }),
});

builder.queryFields((t) => ({
  search: t.field({ ...operation('searchShows'),
    type: ShowSearchResultRef,
    description: `Shows by name (typo-tolerant), podcast-directory link or RSS feed URL, at most ${MAX_QUERY_LENGTH} characters (1 request, 0 credits). A feed new to Podtext is added on the spot. Errors: \`invalid_request\` (also when a feed's server fails: the message says how), \`unsupported_link\` (streaming-service links: those services do not publish the RSS feed).`,
    args: { q: t.arg.string({ required: true }) },
    resolve: (_r, { q }, ctx, info) =>
      ctx.services.discovery.search(requireActor(ctx), q, queryFromInfo({ context: ctx, info, typeName: 'Show', path: ['shows'] })),
  }),
  trending: t.field({ ...operation('getTrending'),
    type: TrendingRef,
    description: `Shows busy this week (1 request, 0 credits). ${TRENDING_DOCS}`,
    args: {
      category: t.arg.string(),
      max: t.arg.int({ description: `1 to ${TRENDING_LIST.max}. Default: ${TRENDING_LIST.default}.` }),
      lang: t.arg.string({ description: `Default: ${TRENDING_DEFAULT_LANG}.` }),
    },
    resolve: (_r, args, ctx, info) => ctx.services.discovery.trending(args, queryFromInfo({ context: ctx, info, typeName: 'Show', path: ['shows'] })),
  }),
}));
