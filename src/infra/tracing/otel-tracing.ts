import type { Span } from '@opentelemetry/api';
import type { SpanAttributes, SpanKind, TraceSpan, Tracing, TracingConfig } from './tracing.js';

function definedOnly(attributes: SpanAttributes | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(attributes ?? {})) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Tracing through the OpenTelemetry SDK, exported over OTLP/HTTP (JSON) to
 * `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`; the exporter also reads the
 * standard `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_BSP_*` variables. Loaded
 * only when that endpoint is set, and its packages only by dynamic import:
 * the bundle keeps them out of a process that does not trace.
 */
export async function createOtelTracing(config: TracingConfig): Promise<Tracing> {
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'podtext.role': config.role, 'process.pid': process.pid }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // Installs the AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  const tracer = api.trace.getTracer('podtext');
  const kinds: Record<SpanKind, number> = { server: api.SpanKind.SERVER, client: api.SpanKind.CLIENT, internal: api.SpanKind.INTERNAL };
  const getter = {
    get: (carrier: (name: string) => string | undefined, key: string) => carrier(key),
    keys: () => [],
  };
  const handle = (span: Span): TraceSpan => ({
    setAttributes: (attributes) => span.setAttributes(definedOnly(attributes)),
    updateName: (name) => span.updateName(name),
    fail: (message) => span.setStatus({ code: api.SpanStatusCode.ERROR, message }),
  });

  return {
    enabled: true,
    inSpan(name, options, fn) {
      const parent = options.carrier ? api.propagation.extract(api.ROOT_CONTEXT, options.carrier, getter) : api.context.active();
      return tracer.startActiveSpan(name, { kind: kinds[options.kind ?? 'internal'] as never, attributes: definedOnly(options.attributes) }, parent, async (span) => {
        try {
          return await fn(handle(span));
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: (err as Error)?.message });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    activeIds() {
      const ctx = api.trace.getSpan(api.context.active())?.spanContext();
      return ctx && api.isSpanContextValid(ctx) ? { trace_id: ctx.traceId, span_id: ctx.spanId } : undefined;
    },
    inject(headers) {
      api.propagation.inject(api.context.active(), headers);
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
