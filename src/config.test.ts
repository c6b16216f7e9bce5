import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig, withBoundPort } from './config.js';

/** A complete billing configuration, for cases that spoil one of its values. */
const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_PLUS: 'price_plus', STRIPE_PRICE_PRO: 'price_pro', STRIPE_PRICE_BUSINESS: 'price_business' };

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', siteUrl: 'http://localhost:8080', baseUrl: 'http://localhost:8080/api/v1', role: 'all', logLevel: 'info', mailFrom: 'Podtext <no-reply@localhost>' });
    expect(c.webhookRetrySchedule).toEqual([60, 300, 900, 3600, 14400]);
    expect(c.standardLane.engine).toBe('sphinx');
    expect(c.fastLane).toBeNull();
    expect(c.fastConcurrency).toBe(8);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.charts?.overall).toBe('https://rss.marketingtools.apple.com/api/v2/us/podcasts/top/100/podcasts.json');
    expect(loadConfig({ APPLE_CHARTS_URL: 'off' }).charts).toBeNull();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ ROLE: 'boss' }, 'ROLE'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'nope' }, 'SMTP_URL'],
    [{ OUTBOUND_ALLOW: 'localhost' }, 'OUTBOUND_ALLOW'],
    [{ OUTBOUND_ALLOW: '127.0.0.1:99999' }, 'OUTBOUND_ALLOW'],
    [{ OUTBOUND_ALLOW: '127.0.0.1:0' }, 'OUTBOUND_ALLOW'],
    [{ HOST: 'not a host' }, 'HOST'],
    [{ HOST: '[::1' }, 'HOST'],
    [{ WEBHOOK_RETRY_SCHEDULE: '60,-1' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '60,1e13' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '9999999999999' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '0x10' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '2592001' }, 'WEBHOOK_RETRY_SCHEDULE: must be a comma list of whole seconds from 1 to 2592000'],
    [{ SAMPLE_TRANSCRIPT_ID: 'XYZ' }, 'SAMPLE_TRANSCRIPT_ID'],
    [{ ASR_ENGINE: 'siri' }, 'ASR_ENGINE'],
    [{ SECRET_KEY: 'short' }, 'SECRET_KEY'],
    [{ AI_URL: 'http://llm:8000' }, 'AI_MODEL'],
    [{ APPLE_CHARTS_URL: 'ftp://charts' }, 'APPLE_CHARTS_URL'],
    [{ APPLE_GENRE_CHARTS_URL: 'charts' }, 'APPLE_GENRE_CHARTS_URL'],
    [{ APPLE_GENRE_CHARTS_URL: 'https://charts.example/top.json' }, 'must contain {genre}'],
    [{ AUDIO_CHECK_INTERVAL: '0.001' }, 'AUDIO_CHECK_INTERVAL'],
    [{ MAIL_FROM: 'Podtext Team' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'Podtext <no address>' }, 'MAIL_FROM'],
    [{ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_PLUS: 'p1', STRIPE_PRICE_PRO: 'p2', STRIPE_PRICE_BUSINESS: 'p3' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'STRIPE_PRICE_PLUS'],
    [{ STRIPE_API_URL: 'stripe' }, 'STRIPE_API_URL'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_PLUS: 'p1', STRIPE_PRICE_PRO: 'p2', STRIPE_PRICE_BUSINESS: 'p3' }, 'STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PLUS'],
    [{ STRIPE_PRICE_PRO: 'p2' }, 'STRIPE_SECRET_KEY: required when STRIPE_PRICE_PRO is set'],
    [{ ...STRIPE, STRIPE_SECRET_KEY: 'pk_live_1' }, 'STRIPE_SECRET_KEY: must be a secret or restricted key'],
    [{ ...STRIPE, STRIPE_WEBHOOK_SECRET: 'nothing' }, 'STRIPE_WEBHOOK_SECRET: must be'],
    [{ ...STRIPE, STRIPE_PRICE_PRO: 'price_plus' }, 'STRIPE_PRICE_PRO: the same price as STRIPE_PRICE_PLUS'],
    [{ ...STRIPE, STRIPE_PRICE_BUSINESS: 'price_pro' }, 'STRIPE_PRICE_BUSINESS: the same price as STRIPE_PRICE_PRO'],
    [{ ...STRIPE, STRIPE_PRICE_PRO: 'price_pro_2,price_plus' }, 'STRIPE_PRICE_PRO: the same price as STRIPE_PRICE_PLUS (price_plus)'],
    [{ ...STRIPE, STRIPE_PRICE_PLUS: 'price_plus,' }, 'STRIPE_PRICE_PLUS: an empty price id in the list'],
    [{ FAST_ASR_ENGINE: 'sphinx' }, 'FAST_ASR_ENGINE'],
    [{ FAST_ASR_ENGINE: 'openai' }, 'FAST_ASR_URL'],
    [{ ASR_ENGINE: 'openai' }, 'ASR_ENGINE: openai needs ASR_URL'],
    [{ SITE_URL: 'https://example.org/podtext' }, 'SITE_URL'],
    [{ ASR_ENGINE: 'whisper-cpp', FAST_ASR_ENGINE: 'whisper-cpp' }, 'FAST_ASR_ENGINE'],
    [{ FAST_ASR_CONCURRENCY: '0' }, 'FAST_ASR_CONCURRENCY'],
    [{ ASR_ENGINE: 'openai', ASR_URL: '/usr/bin/asr' }, 'ASR_URL: must be a URL'],
    [{ ASR_ENGINE: 'whisper-cpp', ASR_URL: 'http://asr-host:8080/inference' }, "ASR_URL: whisper-cpp runs whisper.cpp's program"],
    [{ FAST_ASR_ENGINE: 'whisper-cpp', FAST_ASR_URL: 'http://gpu-host:8080' }, "FAST_ASR_URL: whisper-cpp runs whisper.cpp's program"],
    [{ METRICS_TOKEN: ' \t ' }, 'METRICS_TOKEN'],
  ])('a bad value stops the start naming the variable: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it.each(['', '  '])('reads an empty number variable (%j) as unset: its default, never 0', (blank) => {
    const c = loadConfig({
      PORT: blank, WORKERS: blank, FAST_ASR_CONCURRENCY: blank, AUDIO_CHECK_INTERVAL: blank,
      SHUTDOWN_GRACE_SECONDS: blank, SHUTDOWN_DELAY_SECONDS: blank, QUEUE_RETENTION_DAYS: blank, DATABASE_STATEMENT_TIMEOUT: blank,
    });
    expect(c).toMatchObject({
      port: 8080, siteUrl: 'http://localhost:8080', workers: os.availableParallelism(), fastConcurrency: 8, audioCheckIntervalSeconds: 21_600,
      shutdownGraceSeconds: 25, shutdownDelaySeconds: 0, queueRetentionDays: 30, statementTimeoutSeconds: 15,
    });
    // 0 written out still means 0.
    expect(loadConfig({ WORKERS: '0', PORT: '0' })).toMatchObject({ workers: 0, port: 0 });
  });

  it('reads every empty variable as unset: its default', () => {
    const empty = Object.fromEntries(['ROLE', 'HOST', 'DATA_DIR', 'MAIL_FROM', 'ASR_ENGINE', 'FAST_ASR_ENGINE', 'LOG_LEVEL', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OUTBOUND_ALLOW', 'SITE_URL'].map((name) => [name, '']));
    const c = loadConfig(empty);
    expect(c).toMatchObject({ role: 'all', host: '127.0.0.1', logLevel: 'info', mailFrom: 'Podtext <no-reply@localhost>', siteUrl: 'http://localhost:8080', fastLane: null });
    expect(c.standardLane.engine).toBe('sphinx');
    expect(c.dataDir).toBe(loadConfig({}).dataDir);
    expect(loadConfig({ DATA_DIR: '   ' }).dataDir).toBe(path.resolve('data'));
    expect(loadConfig({ DATA_DIR: ' /srv/podtext ' }).dataDir).toBe('/srv/podtext');
  });

  it('refuses numbers not written in decimal, naming the variable (PORT=1e4 would listen on 10000)', () => {
    for (const [name, value] of [['PORT', '1e4'], ['PORT', '0x4d30'], ['SHUTDOWN_DELAY_SECONDS', '1e2'], ['AUDIO_CHECK_INTERVAL', '0x10'], ['WORKERS', '4 '.repeat(2)], ['SHUTDOWN_GRACE_SECONDS', '25s'], ['PORT', 'Infinity']]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: must be a decimal number`));
    }
    expect(loadConfig({ PORT: ' 19701 ', SHUTDOWN_DELAY_SECONDS: '0.5', WORKERS: '2' })).toMatchObject({ port: 19701, shutdownDelaySeconds: 0.5, workers: 2 });
    expect(() => loadConfig({ PORT: '-1' })).toThrow(/PORT: Too small/);
  });

  it('bounds statements by DATABASE_STATEMENT_TIMEOUT in seconds, never unbounded (one lock held elsewhere would hold every connection)', () => {
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT: '2.5' }).statementTimeoutSeconds).toBe(2.5);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT: '0' })).toThrow(/DATABASE_STATEMENT_TIMEOUT: Too small/);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT: '5s' })).toThrow(/DATABASE_STATEMENT_TIMEOUT: must be a decimal number/);
  });

  it('listens on an IPv6 address written as in a URL, [::1], as on ::1', () => {
    expect(loadConfig({ HOST: '[::1]' }).host).toBe('::1');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
    expect(loadConfig({ HOST: 'localhost' }).host).toBe('localhost');
  });

  it('refuses a SHUTDOWN_DELAY_SECONDS that the grace period would cut short', () => {
    expect(() => loadConfig({ SHUTDOWN_DELAY_SECONDS: '30' })).toThrow(/SHUTDOWN_DELAY_SECONDS: 30 leaves no time within SHUTDOWN_GRACE_SECONDS \(25\)/);
    expect(() => loadConfig({ SHUTDOWN_DELAY_SECONDS: '5', SHUTDOWN_GRACE_SECONDS: '6' })).toThrow(/raise SHUTDOWN_GRACE_SECONDS above 6/);
    expect(loadConfig({ SHUTDOWN_DELAY_SECONDS: '30', SHUTDOWN_GRACE_SECONDS: '40' })).toMatchObject({ shutdownDelaySeconds: 30, shutdownGraceSeconds: 40 });
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '1' }).shutdownGraceSeconds).toBe(1);
  });

  it('an empty METRICS_TOKEN is unset; one with spaces around it is trimmed', () => {
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: ' s3cret ' }).metricsToken).toBe('s3cret');
  });

  it('with PORT=0 and no SITE_URL, the site URL names the port bound', () => {
    const free = withBoundPort(loadConfig({ PORT: '0' }), 43123);
    expect(free).toMatchObject({ port: 43123, siteUrl: 'http://localhost:43123', baseUrl: 'http://localhost:43123/api/v1' });
    const set = withBoundPort(loadConfig({ PORT: '0', SITE_URL: 'https://podtext.example' }), 43123);
    expect(set).toMatchObject({ port: 43123, siteUrl: 'https://podtext.example', baseUrl: 'https://podtext.example/api/v1' });
  });

  it('turns billing on with STRIPE_SECRET_KEY and its companions', () => {
    expect(loadConfig({}).stripe).toBeUndefined();
    const c = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_PLUS: 'price_plus', STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_BUSINESS: 'price_business', STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(c.stripe).toEqual({
      secretKey: 'sk_test_1', webhookSecret: 'whsec_1', prices: { plus: 'price_plus', pro: 'price_pro', business: 'price_business' },
      earlierPrices: { plus: [], pro: [], business: [] }, apiUrl: 'http://127.0.0.1:12111',
    });
  });

  it('sells the first price of a STRIPE_PRICE_* list and keeps the plan of subscriptions on the earlier ones', () => {
    const c = loadConfig({ ...STRIPE, STRIPE_PRICE_PLUS: 'price_plus_2027, price_plus_2026,price_plus_2025', STRIPE_PRICE_PRO: 'price_pro' });
    expect(c.stripe).toMatchObject({
      prices: { plus: 'price_plus_2027', pro: 'price_pro', business: 'price_business' },
      earlierPrices: { plus: ['price_plus_2026', 'price_plus_2025'], pro: [], business: [] },
    });
  });

  it('has a fast lane only with an engine faster than the standard one', () => {
    expect(loadConfig({ FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: 'http://gpu:8000/v1', FAST_ASR_CONCURRENCY: '16' })).toMatchObject({ fastLane: { engine: 'openai', url: 'http://gpu:8000/v1' }, fastConcurrency: 16 });
    expect(loadConfig({ ASR_ENGINE: 'whisper-cpp', FAST_ASR_ENGINE: 'whisper-cpp', FAST_ASR_MODEL: 'ggml-large-v3.bin' }).fastLane?.engine).toBe('whisper-cpp');
  });

  it('takes the whisper.cpp program of a whisper-cpp lane in its *_URL, as a path', () => {
    const c = loadConfig({
      ASR_ENGINE: 'whisper-cpp', ASR_URL: '/opt/whisper.cpp/cpu/whisper-cli', ASR_MODEL: '/models/ggml-base.en.bin',
      FAST_ASR_ENGINE: 'whisper-cpp', FAST_ASR_URL: '/opt/whisper.cpp/cuda/whisper-cli', FAST_ASR_MODEL: '/models/ggml-base.en.bin',
    });
    expect(c.standardLane).toMatchObject({ engine: 'whisper-cpp', url: '/opt/whisper.cpp/cpu/whisper-cli', model: '/models/ggml-base.en.bin' });
    expect(c.fastLane).toMatchObject({ engine: 'whisper-cpp', url: '/opt/whisper.cpp/cuda/whisper-cli' });
  });

  it('turns tracing on with OTEL_EXPORTER_OTLP_ENDPOINT, over OTLP/HTTP JSON only', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({ endpoint: 'http://collector:4318', serviceName: 'podtext' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'podtext-eu', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).tracing?.serviceName).toBe('podtext-eu');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });

  it('traces with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT alone, and refuses the exporter variables it would ignore', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).tracing).toEqual({ endpoint: 'http://collector:4318/v1/traces', serviceName: 'podtext' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s3cret, x-tenant = eu', OTEL_BSP_SCHEDULE_DELAY: '100' }).tracing?.endpoint).toBe('http://c:4318');
    for (const [name, value] of [['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'ftp://collector/v1/traces'], ['OTEL_EXPORTER_OTLP_HEADERS', 'api-key'], ['OTEL_EXPORTER_OTLP_HEADERS', '=x'], ['OTEL_BSP_SCHEDULE_DELAY', 'abc'], ['OTEL_BSP_SCHEDULE_DELAY', '-5'], ['OTEL_BSP_SCHEDULE_DELAY', '5s']]) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
    }
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL: only http\/json/);
  });

  it('parses lists and trims the site URL', () => {
    const c = loadConfig({ OUTBOUND_ALLOW: '127.0.0.1:9000, LOCALHOST:80', SITE_URL: 'https://podtext.example/', WEBHOOK_RETRY_SCHEDULE: '1,2' });
    expect(c.outboundAllow).toEqual(['127.0.0.1:9000', 'localhost:80']);
    expect(c.siteUrl).toBe('https://podtext.example');
    expect(c.webhookRetrySchedule).toEqual([1, 2]);
  });

  it("has every variable it reads in the README's Configuration table, and no row for one it does not read", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const table = readme.split('## Configuration')[1]!.split('\n## ')[0]!;
    // A row's first cell names its variables: `A`, `B` or `PREFIX_A` / `_B` for PREFIX_A and PREFIX_B.
    const documented = table.split('\n').filter((line) => line.startsWith('| `')).flatMap((line) => {
      const names = [...line.split('|')[1]!.matchAll(/`([A-Z_][A-Z0-9_]*)`/g)].map((m) => m[1]!);
      const prefix = names[0]!.slice(0, names[0]!.lastIndexOf('_'));
      return names.map((n) => (n.startsWith('_') ? prefix + n : n));
    });
    expect(documented.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    // A lane's companions (`ASR_URL`, `FAST_ASR_MODEL`, …) are told in their engine's row.
    const named = new Set([...documented, ...[...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)]);
    expect(CONFIG_VARIABLES.filter((name) => !named.has(name))).toEqual([]);
  });
});
