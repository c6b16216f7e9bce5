import { JOBS_PER_PAGE } from '../../core/jobs/job-service.js';
import type { JobView } from '../../core/jobs/job-view.js';
import { MAX_EPISODES_PER_REQUEST, REQUEST_FIELD_DOCS } from '../../core/jobs/request-input.js';
import { invalid } from '../../core/errors.js';
import { prices } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { jobShape, requestResultShape } from '../../wire/job-shapes.js';
import { requireActor } from '../require-actor.js';
import { shapeType } from '../shape-type.js';

export const JobRef = shapeType(jobShape);

type Edge = { cursor: string; node: JobView };
type Connection = { edges: Edge[]; totalCount: number; hasNextPage: boolean };

const JobEdgeRef = builder.objectRef<Edge>('JobEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: JobRef, resolve: (e) => e.node }) }),
});

const JobConnectionRef = builder.objectRef<Connection>('JobConnection').implement({
  description: 'Jobs newest first. Cursors are opaque.',
  fields: (t) => ({
    edges: t.field({ type: [JobEdgeRef], resolve: (c) => c.edges }),
    nodes: t.field({ type: [JobRef], resolve: (c) => c.edges.map((e) => e.node) }),
    totalCount: t.exposeInt('totalCount'),
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.string({ nullable: true, resolve: (c) => c.edges.at(-1)?.cursor ?? null }),
  }),
});

// A cursor names the job it follows, so a page stays put while new jobs are created.
const cursorOf = (jobId: string) => Buffer.from(`job:${jobId}`).toString('base64url');
function jobAfter(cursor: string | null | undefined): string | null {
  if (!cursor) return null;
  const m = /^job:([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw invalid('after', 'not a cursor from this connection');
  return m[1]!;
}

const RequestResultRef = shapeType(requestResultShape);

const EpisodeInput = builder.inputType('TranscriptionEpisodeInput', {
  fields: (t) => ({
    guid: t.string({ required: true }),
    url: t.string({ required: true, description: 'The audio URL from the episode list.' }),
    title: t.string(),
    date: t.string(),
    secs: t.int({ description: REQUEST_FIELD_DOCS.secs }),
  }),
});

const RequestInput = builder.inputType('TranscriptionRequestInput', {
  fields: (t) => ({
    episodes: t.field({ type: [EpisodeInput], required: true, description: `At most ${MAX_EPISODES_PER_REQUEST}.` }),
    email: t.string({ description: REQUEST_FIELD_DOCS.email }),
    webhookUrl: t.string({ description: 'https only.' }),
    dryRun: t.boolean(),
    fast: t.boolean({ description: `${prices.fastTranscribePerHour} credits per hour, promised within promiseSeconds. Only where fastLaneAvailable; else fast_lane_unavailable, nothing charged.` }),
  }),
});

builder.queryFields((t) => ({
  jobs: t.field({ ...operation('listJobs'),
    type: JobConnectionRef,
    description: "This key's jobs, newest first (1 request).",
    args: { first: t.arg.int({ description: `Default ${JOBS_PER_PAGE.default}, at most ${JOBS_PER_PAGE.max}.` }), after: t.arg.string() },
    resolve: async (_r, args, ctx) => {
      const { jobs, total, hasMore } = await ctx.services.jobs.range(requireActor(ctx), jobAfter(args.after), args.first ?? JOBS_PER_PAGE.default);
      return { edges: jobs.map((node) => ({ cursor: cursorOf(node.id), node })), totalCount: total, hasNextPage: hasMore };
    },
  }),
  job: t.field({ ...operation('getJob'),
    type: JobRef,
    description: 'One job of this key, with live status (not_found for any other).',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.services.jobs.get(requireActor(ctx), id),
  }),
}));

builder.mutationFields((t) => ({
  requestTranscription: t.field({ ...operation('requestTranscription'),
    type: RequestResultRef,
    description: `Unlocks library episodes (${prices.unlock} credit each) and queues the rest as one job (${prices.transcribePerHour} per hour, ${prices.fastTranscribePerHour} fast), all or nothing; dryRun quotes.`,
    args: { input: t.arg({ type: RequestInput, required: true }) },
    resolve: (_r, { input }, ctx) => ctx.services.jobs.request(requireActor(ctx), input),
  }),
}));

// The only subscriptions so far; a second module with subscriptions should move this to builder.ts.
builder.subscriptionType({ description: 'Live job status, over graphql-ws or SSE (Accept: text/event-stream).' });

builder.subscriptionFields((t) => ({
  jobUpdated: t.field({ ...operation('watchJob'),
    type: JobRef,
    description: 'The job now, then each change; completes when it is done. Only its owner may subscribe.',
    args: { id: t.arg.string({ required: true }) },
    subscribe: (_r, { id }, ctx) => ctx.services.jobs.watch(requireActor(ctx), id),
    resolve: (job) => job,
  }),
  myJobsUpdated: t.field({ ...operation('watchMyJobs'),
    type: JobRef,
    description: "This key's unfinished jobs now, then every change to any of its jobs.",
    subscribe: (_r, _a, ctx) => ctx.services.jobs.watchAll(requireActor(ctx)),
    resolve: (job) => job,
  }),
}));
