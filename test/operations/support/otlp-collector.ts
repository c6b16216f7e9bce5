import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, attributes flattened. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status?: { code?: number; message?: string };
  resource: Record<string, string | number | boolean>;
}

export interface OtlpCollector {
  /** The base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  spans(): CollectedSpan[];
  /** Request bodies that were not OTLP JSON (a protobuf export, say). */
  rejected(): number;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

function flatten(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? value.boolValue ?? '';
  }
  return out;
}

/**
 * A stand-in OpenTelemetry collector: records the spans POSTed to
 * `/v1/traces` in OTLP/HTTP JSON, as a real collector would receive them.
 */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  let rejected = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        rejected++;
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        resourceSpans: { resource?: { attributes?: KeyValue[] }; scopeSpans: { spans: (Omit<CollectedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] })[] }[] }[];
      };
      for (const rs of body.resourceSpans) {
        const resource = flatten(rs.resource?.attributes);
        for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, parentSpanId: s.parentSpanId || undefined, attributes: flatten(s.attributes), resource });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    rejected: () => rejected,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
