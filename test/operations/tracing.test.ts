import { randomBytes } from 'node:crypto';
import { freePort } from '../support/free-port.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { type SpeechApi, startSpeechApi } from '../jobs/support/speech-api.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { waitFor } from '../jobs/support/wait.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import { type CollectedSpan, type OtlpCollector, startOtlpCollector } from './support/otlp-collector.js';
import { type PodtextProcess, spawnPodtext } from './support/podtext-process.js';

const SERVER = 2;
const CLIENT = 3;

let collector: OtlpCollector | undefined;
let audio: AudioServer | undefined;
let speech: SpeechApi | undefined;
let podtext: PodtextProcess | undefined;
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await podtext?.dispose();
  await Promise.all([collector?.close(), audio?.close(), speech?.close()]);
  for (const drop of drops.splice(0)) await drop();
});

/** The JSON log lines of the process. */
function logLines(p: PodtextProcess): Record<string, unknown>[] {
  return p
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const engines = ['pglite', ...(hasPostgres() ? ['postgres'] : [])] as const;

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it.each(engines)('on %s: exports spans for a REST call, a GraphQL call and a webhook delivery, linked to their parents, with the trace id in the log and on the webhook', async (engine) => {
    const database: Record<string, string> = {};
    if (engine === 'postgres') {
      const db = await freshPostgresDatabase();
      drops.push(db.drop);
      database.DATABASE_URL = db.url;
    }
    collector = await startOtlpCollector();
    audio = await startAudioServer();
    audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
    speech = await startSpeechApi(SHORT_PASSAGE);
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    podtext = await spawnPodtext('serve', {
      PORT: String(port),
      SITE_URL: site,
      WORKERS: '1',
      ASR_ENGINE: 'openai',
      ASR_URL: speech.url,
      OUTBOUND_ALLOW: `${audio.endpoint},${speech.endpoint}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'podtext-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...database,
    });
    const p = podtext;
    const api = (path: string, init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      fetch(`${site}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { 'content-type': 'application/json', ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });

    // A REST call from a client that traces too: Podtext continues its trace.
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const started = await api('/api/v1/register/start', { body: { email: 'tracer@example.com' }, headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` } });
    expect(started.status).toBe(200);
    const mailLine = await waitFor(() => logLines(p).find((l) => typeof l.link === 'string' && String(l.msg).startsWith('mail written')), 20_000, 'the confirmation mail');
    const token = /token=([\w-]+)/.exec(String(mailLine.link))?.[1] ?? /([\w-]{40,})/.exec(String(mailLine.link))![1]!;
    const confirmed = await api('/api/v1/register/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    const { key } = (await confirmed.json()) as { key: string };

    const gql = await api('/graphql', { key, body: { query: 'query Me { me { credits } }' } });
    expect(((await gql.json()) as { data: { me: { credits: number } } }).data.me.credits).toBeGreaterThan(0);

    const inbox = (await (await api('/api/v1/webhooks/inbox', { key, method: 'POST' })).json()) as { id: string; url: string };
    const requested = await api('/api/v1/requests', { key, body: { episodes: [{ guid: newGuid('traced'), url: audio.url('/spoken.mp3') }], webhook_url: inbox.url } });
    expect(requested.status).toBe(200);
    const jobId = ((await requested.json()) as { job: { id: string } }).job.id;
    type Delivery = { headers: Record<string, string>; body: { job: { id: string } } };
    const delivery = await waitFor(async () => {
      const r = (await (await api(`/api/v1/webhooks/inbox/${inbox.id}`, { key })).json()) as { deliveries: Delivery[] };
      return r.deliveries.find((d) => d.body.job.id === jobId);
    }, 120_000, () => `the webhook (${p.output().slice(-800)})`, 200);
    const traceparent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(delivery.headers.traceparent ?? '');
    expect(traceparent, `traceparent header: ${delivery.headers.traceparent}`).not.toBeNull();
    const [, hookTrace, hookParent] = traceparent!;

    const spans = () => collector!.spans();
    const find = (what: string, test: (s: CollectedSpan) => boolean) => waitFor(() => spans().find(test), 10_000, () => `${what} among ${spans().map((s) => s.name).join(', ')}`);
    const childrenOf = (s: CollectedSpan) => spans().filter((c) => c.parentSpanId === s.spanId && c.traceId === s.traceId);

    // The REST call: a server span in the caller's trace, its statements below it.
    const rest = await find('the REST span', (s) => s.name === 'POST /api/v1/register/start');
    expect(rest).toMatchObject({ kind: SERVER, traceId: callerTrace, parentSpanId: callerSpan });
    expect(rest.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/v1/register/start', 'http.response.status_code': 200, 'podtext.operation': 'startRegistration' });
    expect(rest.resource).toMatchObject({ 'service.name': 'podtext-under-test', 'podtext.role': 'all' });
    const restQueries = childrenOf(rest).filter((c) => c.attributes['db.system.name'] === 'postgresql');
    expect(restQueries.length).toBeGreaterThan(0);
    expect(restQueries[0]).toMatchObject({ kind: CLIENT, attributes: { 'podtext.db.engine': engine } });
    expect(String(restQueries[0]!.attributes['db.query.text'])).toMatch(/^\s*(SELECT|INSERT|UPDATE|DELETE|BEGIN|WITH)/i);

    // The GraphQL call: the HTTP span, the operation under it, its statements under that.
    const operation = await find('the GraphQL operation span', (s) => s.name === 'query Me');
    expect(operation.attributes).toMatchObject({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'Me' });
    const graphqlHttp = spans().find((s) => s.spanId === operation.parentSpanId);
    expect(graphqlHttp).toMatchObject({ name: 'POST /graphql', kind: SERVER, traceId: operation.traceId, attributes: { 'http.response.status_code': 200 } });
    expect(childrenOf(operation).some((c) => /^SELECT/.test(c.name) && c.attributes['db.collection.name'] !== undefined)).toBe(true);

    // The transcription's outbound fetch of the audio is a client span.
    const download = await find('the audio download', (s) => s.kind === CLIENT && String(s.attributes['url.full']).endsWith('/spoken.mp3'));
    expect(download.attributes).toMatchObject({ 'http.request.method': 'GET', 'server.address': '127.0.0.1' });

    // The webhook: its attempt span, the POST under it whose context the receiver got.
    const attempt = await find('the webhook attempt span', (s) => s.name === 'webhook job.done' && s.attributes['podtext.job.id'] === jobId);
    expect(attempt.traceId).toBe(hookTrace);
    expect(attempt.attributes).toMatchObject({ 'podtext.webhook.delivered': true, 'podtext.webhook.attempt': 1 });
    const post = await find('the webhook POST span', (s) => s.spanId === hookParent);
    expect(post).toMatchObject({ name: 'POST', kind: CLIENT, traceId: hookTrace, parentSpanId: attempt.spanId, attributes: { 'http.response.status_code': 200 } });
    // The receiving end (this Podtext's own inbox) joined the same trace.
    const received = await find('the inbox span', (s) => s.name === 'POST /hooks/inbox/:id' && s.traceId === hookTrace);
    expect(received.parentSpanId).toBe(post.spanId);

    // The delivery's log line carries its trace id.
    const delivered = logLines(p).find((l) => l.msg === 'webhook delivered' && l.jobId === jobId);
    expect(delivered).toMatchObject({ trace_id: hookTrace, span_id: attempt.spanId });
    expect(collector.rejected()).toBe(0);
  }, 180_000);
});
