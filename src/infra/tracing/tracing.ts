/**
 * Podtext's own view of tracing: spans around its choke points (the HTTP
 * door, GraphQL operations, database queries, outbound requests, webhook
 * sends). Off by default, and then free: no OpenTelemetry module is loaded
 * and every span is a plain call of its function. `startTracing` swaps in
 * the OpenTelemetry implementation when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
 */

export type SpanKind = 'server' | 'client' | 'internal';
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** The span a traced function runs in. */
export interface TraceSpan {
  setAttributes(attributes: SpanAttributes): void;
  updateName(name: string): void;
  /** Marks the span failed (without an exception: a 5xx answer, a GraphQL error). */
  fail(message: string): void;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: SpanAttributes;
  /** Incoming request headers whose `traceparent` names the parent (server spans). */
  carrier?: (name: string) => string | undefined;
}

export interface Tracing {
  readonly enabled: boolean;
  /**
   * Runs `fn` inside a new span, a child of the active one (or of
   * `carrier`'s traceparent). A throw marks the span failed and passes on.
   */
  inSpan<T>(name: string, options: SpanOptions, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** The active span's ids, for log lines; undefined outside any span. */
  activeIds(): { trace_id: string; span_id: string } | undefined;
  /** Adds the active span's `traceparent` (and `tracestate`) to `headers`. */
  inject(headers: Record<string, string>): void;
  /** Sends the spans still buffered; at shutdown. */
  shutdown(): Promise<void>;
}

const noSpan: TraceSpan = { setAttributes: () => undefined, updateName: () => undefined, fail: () => undefined };

export const noTracing: Tracing = {
  enabled: false,
  inSpan: (_name, _options, fn) => fn(noSpan),
  activeIds: () => undefined,
  inject: () => undefined,
  shutdown: async () => undefined,
};

let current: Tracing = noTracing;

/** The process's tracing: `noTracing` until `startTracing` turned it on. */
export function tracing(): Tracing {
  return current;
}

export interface TracingConfig {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`; unset: tracing off. */
  endpoint?: string;
  /** `OTEL_SERVICE_NAME`. Default: `podtext`. */
  serviceName: string;
  /** `api`, `worker` or `all`: a resource attribute, to tell processes apart. */
  role: string;
}

/**
 * Turns tracing on for this process when an endpoint is configured. The
 * OpenTelemetry SDK is imported only here, on demand.
 */
export async function startTracing(config: TracingConfig): Promise<Tracing> {
  if (!config.endpoint || current.enabled) return current;
  const { createOtelTracing } = await import('./otel-tracing.js');
  current = await createOtelTracing(config);
  return current;
}
