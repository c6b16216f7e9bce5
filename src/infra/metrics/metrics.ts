import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram.js';

/**
 * Starts each of a counter's known series at 0. A series first exposed at 1
 * is no increase to Prometheus' `rate()` and `increase()`: without this, the
 * first failed webhook or mail after a start would never trip an alert.
 */
export function fromZero<T extends string>(counter: Counter<T>, series: Partial<Record<T, string>>[]): Counter<T> {
  for (const labels of series) counter.inc(labels, 0);
  return counter;
}

/**
 * Podtext's Prometheus metrics, one registry per running Podtext (several can
 * share a Node process in tests). Everything an operator graphs is named
 * here; the README's "Operating Podtext" section lists the same names.
 * Counters count what this process did; the queue, ledger and index gauges
 * read the database (see db-gauges.ts), so any process tells the truth.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  // Node's own: CPU, resident memory, heap, event-loop lag, GC, handles.
  collectDefaultMetrics({ register: registry });

  // Kept as a plain number on the hot path; the gauge reads it when scraped.
  const httpInFlight = { value: 0 };
  new Gauge({
    name: 'podtext_http_requests_in_flight',
    help: 'HTTP requests being answered now (a shutdown cuts off those still running at the end of its grace period).',
    registers,
    collect() {
      this.set(httpInFlight.value);
    },
  });

  return {
    registry,
    httpInFlight,
    // Observed on every request: label sets resolved once (see series-histogram.ts).
    httpDuration: new SeriesHistogram(
      'podtext_http_request_duration_seconds',
      'HTTP requests by method, route template and status, in seconds.',
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registry,
    ),
    graphqlOperations: new Counter({
      name: 'podtext_graphql_operations_total',
      help: 'GraphQL operations executed, by type, operation name and whether the result carried errors.',
      labelNames: ['type', 'name', 'errors'] as const,
      registers,
    }),
    subscriptionsOpen: new Gauge({
      name: 'podtext_graphql_subscriptions_open',
      help: 'GraphQL subscriptions open now (graphql-ws and SSE).',
      registers,
    }),
    requestsMetered: new Counter({
      name: 'podtext_requests_metered_total',
      help: 'Calls admitted against a daily allowance (REST, GraphQL over HTTP and graphql-ws), counted at the door.',
      registers,
    }),
    requestsRefused: new Counter({
      name: 'podtext_requests_refused_total',
      help: 'Calls refused because the daily allowance was spent (429 rate_limited), counted at the door.',
      registers,
    }),
    taskDuration: new Histogram({
      name: 'podtext_task_duration_seconds',
      help: 'Transcription work in this process from claim to result, by kind (task, chunk), lane and outcome (stored, settled, split, retry, failed, released, stale).',
      labelNames: ['kind', 'lane', 'outcome'] as const,
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 3600],
      registers,
    }),
    webhookAttempts: fromZero(new Counter({
      name: 'podtext_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, failed, dropped) and attempt number (1–6; 6 means 6 or more).',
      labelNames: ['outcome', 'attempt'] as const,
      registers,
    }), ['delivered', 'failed', 'dropped'].flatMap((outcome) => ['1', '2', '3', '4', '5', '6'].map((attempt) => ({ outcome, attempt })))),
    mails: fromZero(new Counter({
      name: 'podtext_mails_total',
      help: 'Mails handed to SMTP (or written to the outbox directory), by outcome (sent, failed).',
      labelNames: ['outcome'] as const,
      registers,
    }), [{ outcome: 'sent' }, { outcome: 'failed' }]),
    feedRefreshes: fromZero(new Counter({
      name: 'podtext_feed_refreshes_total',
      help: 'Scheduled feed reads, by outcome (updated, not_modified, failed).',
      labelNames: ['outcome'] as const,
      registers,
    }), [{ outcome: 'updated' }, { outcome: 'not_modified' }, { outcome: 'failed' }]),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
