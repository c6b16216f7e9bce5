import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Episode, Show } from '../../generated/prisma/client.js';
import { EPISODE_LIST, parseFeedId } from '../../core/catalog/discovery/discovery-input.js';
import { TRANSCRIPT_ID } from '../../core/transcript-id.js';
import { DomainError, invalid } from '../../core/errors.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { episodeInfoShape, episodeListShape, episodeShape } from '../../wire/catalog-shapes.js';
import { requireActor } from '../require-actor.js';
import { shapeFields, shapeType } from '../shape-type.js';
import { ShowRef } from './show.js';
import { TranscriptRef } from './transcript.js';

export const EpisodeRef = builder.prismaObject('Episode', {
  description: 'An episode in a show\'s list (REST Episode).',
  fields: (t) => ({
    ...shapeFields(t, episodeShape),
    show: t.relation('show'),
    transcript: t.field({
      type: TranscriptRef,
      nullable: true,
      description: 'The transcript when the calling key may read it (unlocked, or the public sample); null otherwise.',
      resolve: async (e, _a, ctx) => {
        if (e.transcriptStatus !== 'ready') return null;
        return ctx.services.transcripts.readDocument(ctx.actor, e.transcriptId).catch((err: unknown) => {
          if (err instanceof DomainError && ['transcript_locked', 'unauthorized', 'not_found'].includes(err.code)) return null;
          throw err;
        });
      },
    }),
  }),
});

type Edge = { cursor: string; node: Episode };
type Connection = { show: Show; readyCount: number; truncated: boolean; edges: Edge[]; hasNextPage: boolean };

/** Whether the field being resolved selects `name` directly (or through inline fragments and fragment spreads). */
function selects(info: GraphQLResolveInfo, name: string): boolean {
  const within = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return within(s.selectionSet);
      return within(info.fragments[s.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((f) => within(f.selectionSet));
}

const cursorOf = (transcriptId: string) => Buffer.from(`ep:${transcriptId}`).toString('base64url');
function transcriptIdAfter(cursor: string | null | undefined): string | null {
  if (!cursor) return null;
  const decoded = Buffer.from(cursor, 'base64url').toString();
  const id = decoded.slice(3);
  if (!decoded.startsWith('ep:') || !TRANSCRIPT_ID.test(id)) throw invalid('after', 'not a cursor from this connection');
  return id;
}

const EpisodeEdgeRef = builder.objectRef<Edge>('EpisodeEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: EpisodeRef, resolve: (e) => e.node }) }),
});

const EpisodeConnectionRef = builder.objectRef<Connection>('EpisodeConnection').implement({
  description: 'A show\'s episodes, newest first. Cursors are opaque.',
  fields: (t) => ({
    show: t.field({ type: ShowRef, resolve: (c) => c.show }),
    readyCount: t.exposeInt('readyCount', { description: episodeListShape.fields.ready_count!.description }),
    truncated: t.exposeBoolean('truncated', { description: episodeListShape.fields.truncated!.description }),
    edges: t.field({ type: [EpisodeEdgeRef], resolve: (c) => c.edges }),
    nodes: t.field({ type: [EpisodeRef], resolve: (c) => c.edges.map((e) => e.node) }),
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.string({ nullable: true, resolve: (c) => c.edges.at(-1)?.cursor ?? null }),
  }),
});

const EpisodeInfoRef = shapeType(episodeInfoShape);

builder.queryFields((t) => ({
  episodes: t.field({ ...operation('listEpisodes'),
    type: EpisodeConnectionRef,
    description: `A show's episodes with transcript status, newest first (1 request, 0 credits). \`first\`: 1 to ${EPISODE_LIST.max}, default ${EPISODE_LIST.default}. Errors: \`invalid_request\`, \`not_found\`.`,
    args: { feedId: t.arg.float({ required: true }), first: t.arg.int(), after: t.arg.string() },
    resolve: async (_r, args, ctx, info) => {
      const feedId = parseFeedId(args.feedId, 'feedId');
      const query = queryFromInfo({ context: ctx, info, typeName: 'Episode', paths: [['edges', 'node'], ['nodes']] });
      const list = await ctx.services.discovery.episodes(requireActor(ctx), feedId, {
        max: args.first, maxField: 'first', after: transcriptIdAfter(args.after), query, truncated: selects(info, 'truncated'),
      });
      return {
        show: list.show,
        readyCount: list.readyCount,
        truncated: list.truncated,
        // A Prisma query was passed, so the rows are whole episodes.
        edges: (list.episodes as Episode[]).map((node) => ({ cursor: cursorOf(node.transcriptId), node })),
        hasNextPage: list.hasMore,
      };
    },
  }),
  episode: t.field({ ...operation('getEpisode'),
    type: EpisodeInfoRef,
    description: 'Episode info for the calling key (1 request, 0 credits). Errors: `invalid_request`, `not_found`.',
    args: { transcriptId: t.arg.string({ required: true }) },
    resolve: (_r, { transcriptId }, ctx) => ctx.services.discovery.episode(requireActor(ctx), transcriptId),
  }),
}));
