import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Episode, Show } from '../../generated/prisma/client.js';
import { EPISODE_LIST, parseFeedId } from '../../core/catalog/discovery/discovery-input.js';
import type { EpisodeInfo } from '../../core/catalog/discovery/episode-info.js';
import { showUrls } from '../../core/catalog/discovery/show-finders.js';
import { DomainError, invalid } from '../../core/errors.js';
import { prices } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';
import { ShowRef } from './show.js';
import { TranscriptRef } from './transcript.js';

export const EpisodeRef = builder.prismaObject('Episode', {
  description: 'An episode in a show\'s list (REST Episode).',
  fields: (t) => ({
    guid: t.exposeString('guid'),
    transcriptId: t.exposeString('transcriptId', { description: 'First 16 hex characters of SHA-1 of the guid.' }),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    episode: t.exposeInt('episodeNumber', { nullable: true, description: 'Episode number.' }),
    season: t.exposeInt('season', { nullable: true }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    durationSeconds: t.exposeInt('durationSeconds', { nullable: true }),
    audioUrl: t.string({ description: 'Original audio location: `url` in a transcription request.', resolve: (e) => e.audioUrl ?? '' }),
    transcriptStatus: t.exposeString('transcriptStatus', { description: 'ready, processing or none.' }),
    transcriptUrl: t.string({ resolve: (e, _a, ctx) => ctx.services.links.transcript(e.transcriptId) }),
    pageUrl: t.string({ resolve: (e, _a, ctx) => ctx.services.links.episodePage(e.transcriptId) }),
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

const cursorOf = (transcriptId: string) => Buffer.from(`ep:${transcriptId}`).toString('base64url');
function transcriptIdAfter(cursor: string | null | undefined): string | null {
  if (!cursor) return null;
  const m = /^ep:([0-9a-f]{16})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw invalid('after', 'not a cursor from this connection');
  return m[1]!;
}

const EpisodeEdgeRef = builder.objectRef<Edge>('EpisodeEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: EpisodeRef, resolve: (e) => e.node }) }),
});

const EpisodeConnectionRef = builder.objectRef<Connection>('EpisodeConnection').implement({
  description: 'A show\'s episodes, newest first. Cursors are opaque.',
  fields: (t) => ({
    show: t.field({ type: ShowRef, resolve: (c) => c.show }),
    readyCount: t.exposeInt('readyCount', { description: "The show's episodes with a transcript ready (all, not only this page)." }),
    truncated: t.exposeBoolean('truncated', { description: 'True when older episodes exist that this page leaves out.' }),
    edges: t.field({ type: [EpisodeEdgeRef], resolve: (c) => c.edges }),
    nodes: t.field({ type: [EpisodeRef], resolve: (c) => c.edges.map((e) => e.node) }),
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.string({ nullable: true, resolve: (c) => c.edges.at(-1)?.cursor ?? null }),
  }),
});

const EpisodeInfoShowRef = builder.objectRef<NonNullable<EpisodeInfo['show']>>('EpisodeInfoShow').implement({
  fields: (t) => ({
    feedId: t.float({ resolve: (s) => Number(s.feedId) }),
    title: t.exposeString('title'),
    author: t.exposeString('author'),
    artwork: t.exposeString('artwork'),
    url: t.string({ resolve: (s, _a, ctx) => showUrls(ctx.services.links, s.feedId).url }),
  }),
});

const EpisodeInfoRef = builder.objectRef<EpisodeInfo>('EpisodeInfo').implement({
  description: 'Whether and at what price the calling key can read an episode (REST GET /episodes/{transcript_id}).',
  fields: (t) => ({
    transcriptId: t.exposeString('transcriptId'),
    title: t.exposeString('title'),
    transcriptStatus: t.exposeString('transcriptStatus', { description: '`ready` when a transcript can be read now; otherwise `none`.' }),
    unlocked: t.exposeBoolean('unlocked', { description: 'Whether this key unlocked it (always true for the public sample).' }),
    unlockCost: t.exposeInt('unlockCost', { nullable: true, description: `0 when unlocked or the sample, ${prices.unlock} when ready, null while no transcript exists.` }),
    wordCount: t.exposeInt('wordCount'),
    durationSeconds: t.exposeFloat('durationSeconds'),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true, description: 'The episode date, per its feed.' }),
    show: t.field({ type: EpisodeInfoShowRef, nullable: true, resolve: (i) => i.show }),
  }),
});

builder.queryFields((t) => ({
  episodes: t.field({ ...operation('listEpisodes'),
    type: EpisodeConnectionRef,
    description: `A show's episodes with transcript status, newest first (1 request, 0 credits). \`first\`: 1 to ${EPISODE_LIST.max}, default ${EPISODE_LIST.default}. Errors: \`invalid_request\`, \`not_found\`.`,
    args: { feedId: t.arg.float({ required: true }), first: t.arg.int(), after: t.arg.string() },
    resolve: async (_r, args, ctx, info) => {
      const feedId = parseFeedId(args.feedId, 'feedId');
      const query = queryFromInfo({ context: ctx, info, typeName: 'Episode', paths: [['edges', 'node'], ['nodes']] });
      const list = await ctx.services.discovery.episodes(requireActor(ctx), feedId, {
        max: args.first, maxField: 'first', after: transcriptIdAfter(args.after), query,
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
