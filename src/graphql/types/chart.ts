import { chartsShape } from '../../wire/catalog-shapes.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { shapeType } from '../shape-type.js';

const ChartsRef = shapeType(chartsShape);

builder.queryField('charts', (t) =>
  t.field({ ...operation('getCharts'),
    type: ChartsRef,
    description: 'Top chart, overall or by genre slug (1 request, 0 credits). An unknown slug is `invalid_request`, listing the valid ones.',
    args: { genre: t.arg.string() },
    resolve: (_r, { genre }, ctx) => ctx.services.discovery.charts(genre),
  }),
);
