import { EPISODE_LIST, listLength, parseFeedId } from '../../core/catalog/discovery/discovery-input.js';
import { LOOKUP_PRECEDENCE } from '../../core/catalog/discovery/lookup-show.js';
import { EPISODES_NEWEST_FIRST } from '../../core/catalog/discovery/episode-order.js';
import { showShape } from '../../wire/catalog-shapes.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';
import { shapeFields } from '../shape-type.js';

// Ids are emitted as Float: Podtext's own feed ids start at 10^12, past GraphQL's 32-bit Int.
const ID_NOTE = 'An integer; typed Float because ids pass 2^31 (Podtext numbers feeds it adds itself from 10^12).';

export const ShowRef = builder.prismaObject('Show', {
  description: 'A show in the index (REST ShowSummary and Show).',
  fields: (t) => ({
    ...shapeFields(t, showShape),
    episodes: t.relation('episodes', {
      description: `Newest first. Loaded with the show in one round trip. For cursors, readyCount and truncated use the root \`episodes\` field.`,
      args: { first: t.arg.int({ description: `1 to ${EPISODE_LIST.max}. Default: ${EPISODE_LIST.default}.` }) },
      query: (args) => ({ orderBy: [...EPISODES_NEWEST_FIRST], take: listLength(args.first, EPISODE_LIST, 'first') }),
    }),
  }),
});

builder.queryFields((t) => ({
  show: t.prismaField({ ...operation('getShow'),
    type: 'Show',
    description: 'Show details (1 request, 0 credits). Errors: `not_found`.',
    args: { feedId: t.arg.float({ required: true, description: ID_NOTE }) },
    resolve: (query, _r, { feedId }, ctx) => ctx.services.discovery.show(parseFeedId(feedId, 'feedId'), query),
  }),
  showLookup: t.prismaField({ ...operation('lookupShow'),
    type: 'Show',
    description: `The show a directory id, feed URL or link names (1 request, 0 credits). ${LOOKUP_PRECEDENCE.replace(/apple_id/g, 'appleId').replace(/feed_url/g, 'feedUrl')} Errors: \`invalid_request\`, \`unsupported_link\`, \`not_found\`.`,
    args: {
      appleId: t.arg.float({ description: ID_NOTE }),
      feedUrl: t.arg.string(),
      url: t.arg.string({ description: 'A podcast-directory link or an RSS feed URL.' }),
    },
    resolve: (query, _r, args, ctx) => ctx.services.discovery.lookup(requireActor(ctx), args, query),
  }),
}));
