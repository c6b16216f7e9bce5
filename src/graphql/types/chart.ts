import type { ChartEntryView, ChartGenreView, Charts } from '../../core/catalog/discovery/charts.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';

const ChartGenreRef = builder.objectRef<ChartGenreView>('ChartGenre').implement({
  fields: (t) => ({ slug: t.exposeString('slug'), name: t.exposeString('name') }),
});

const ChartEntryRef = builder.objectRef<ChartEntryView>('ChartEntry').implement({
  fields: (t) => ({
    rank: t.exposeInt('rank'),
    appleId: t.exposeString('appleId'),
    title: t.exposeString('title'),
    author: t.exposeString('author'),
    artwork: t.exposeString('artwork'),
    lookupUrl: t.exposeString('lookupUrl', { description: 'REST GET /shows/lookup for this entry; in GraphQL, showLookup(appleId:).' }),
  }),
});

const ChartsRef = builder.objectRef<Charts>('Charts').implement({
  description: 'The US top podcast chart of a major directory: 100 entries overall, 50 per genre, imported daily.',
  fields: (t) => ({
    genre: t.field({ type: ChartGenreRef, nullable: true, description: 'Null for the overall chart.', resolve: (c) => c.genre }),
    genres: t.field({ type: [ChartGenreRef], description: 'Every slug `genre` accepts.', resolve: (c) => c.genres }),
    chart: t.field({ type: [ChartEntryRef], resolve: (c) => c.chart }),
  }),
});

builder.queryField('charts', (t) =>
  t.field({ ...operation('getCharts'),
    type: ChartsRef,
    description: 'Top chart, overall or by genre slug (1 request, 0 credits). An unknown slug is `invalid_request`, listing the valid ones.',
    args: { genre: t.arg.string() },
    resolve: (_r, { genre }, ctx) => ctx.services.discovery.charts(genre),
  }),
);
