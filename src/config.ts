import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { APPLE_CHART_SOURCES, type ChartSources } from './core/catalog/imports/chart-import.js';
import { TRANSCRIPT_ID } from './core/transcript-id.js';

const engineName = z.enum(['sphinx', 'whisper-cpp', 'openai']);

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * A number variable, written in decimal (`25`, `0.5`); empty or blank counts
 * as unset, as for every other variable (z.coerce alone reads "" as 0:
 * `PORT=` would take a random port, `WORKERS=` would run none, and it takes
 * `1e4` and `0x50` too: `PORT=1e4` would listen on 10000).
 */
const numberVar = <T extends z.ZodType>(schema: (n: z.ZodCoercedNumber<unknown>) => T) =>
  z.preprocess((v, ctx) => {
    if (typeof v !== 'string') return v;
    if (v.trim() === '') return undefined;
    if (/^\s*-?\d+(\.\d+)?\s*$/.test(v)) return v;
    ctx.addIssue({ code: 'custom', message: 'must be a decimal number, like 25 (no units, exponents or hex)' });
    return z.NEVER;
  }, schema(z.coerce.number()));

const hostPortList = optionalString.transform((v, ctx) => {
  if (!v) return [] as string[];
  const entries = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const e of entries) {
    const port = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(e)?.[2];
    if (port === undefined || Number(port) < 1 || Number(port) > 65535) {
      ctx.addIssue({ code: 'custom', message: `"${e}" is not host:port (a port from 1 to 65535)` });
    }
  }
  return entries.map((e) => e.toLowerCase());
});

/** Longest wait between two webhook attempts: 30 days, as deliveries are kept that long by default. */
const MAX_RETRY_SECONDS = 30 * 86_400;

const secondsList = optionalString.transform((v, ctx) => {
  const raw = (v ?? '60,300,900,3600,14400').split(',').map((s) => s.trim());
  // Plain decimal digits only: Number() would also take 0x10, 1e3 and 1e13 (a date past what can be stored).
  const list = raw.map((s) => (/^\d{1,9}$/.test(s) ? Number(s) : NaN));
  if (list.some((n) => !Number.isInteger(n) || n <= 0 || n > MAX_RETRY_SECONDS)) {
    ctx.addIssue({ code: 'custom', message: `must be a comma list of whole seconds from 1 to ${MAX_RETRY_SECONDS} (30 days)` });
  }
  return list;
});

const urlString = (schemes: string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return schemes.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL (${schemes.join(' or ')})` },
  );

const envSchema = z.object({
  PORT: numberVar((n) => n.int().min(0).max(65535).default(8080)),
  // `[::1]`, as written in a URL, is the address ::1: listen() takes it bare (bracketed, it looks the name up and fails).
  HOST: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9.-]+)$/, 'must be an IP address or a host name')
    .transform((v) => v.replace(/^\[(.*)\]$/, '$1'))
    .default('127.0.0.1'),
  // Podtext answers at the root of its host: links under a path (mail, openapi servers) would all be 404.
  SITE_URL: urlString(['http:', 'https:']).refine((v) => v === undefined || /^[a-z]+:\/\/[^/?#]+\/?$/i.test(v.trim()), {
    message: 'must be the address of a host root, like https://podtext.example (no path, query or fragment): Podtext serves its pages and /api/v1 from /',
  }),
  // Blank is unset, as everywhere: `DATA_DIR=' '` made a directory named by a space beside ./data.
  DATA_DIR: optionalString.transform((v) => v ?? './data'),
  DATABASE_URL: urlString(['postgres:', 'postgresql:']),
  SMTP_URL: urlString(['smtp:', 'smtps:']),
  // An address, bare or after a name (`Podtext <hello@example.com>`): without one, mail goes out with no sender.
  MAIL_FROM: z
    .string()
    .default('Podtext <no-reply@localhost>')
    .refine((v) => /^\s*(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)\s*$/.test(v), { message: 'must be an address, bare or as `Name <address>`' }),
  ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  WORKERS: numberVar((n) => n.int().min(0).max(256).optional()),
  ASR_ENGINE: engineName.default('sphinx'),
  // A server's URL (openai) or the whisper.cpp program (whisper-cpp): checked per engine in laneUrlProblem.
  ASR_URL: optionalString,
  ASR_MODEL: optionalString,
  ASR_API_KEY: optionalString,
  FAST_ASR_ENGINE: engineName.optional(),
  FAST_ASR_URL: optionalString,
  FAST_ASR_MODEL: optionalString,
  FAST_ASR_API_KEY: optionalString,
  FAST_ASR_CONCURRENCY: numberVar((n) => n.int().min(1).max(256).default(8)),
  OUTBOUND_ALLOW: hostPortList,
  WEBHOOK_RETRY_SCHEDULE: secondsList,
  // Under a second the checks would fetch every episode's audio back to back, hammering its hosts.
  AUDIO_CHECK_INTERVAL: numberVar((n) => n.min(1).max(30 * 86_400).default(21_600)),
  SAMPLE_TRANSCRIPT_ID: optionalString.refine((v) => v === undefined || TRANSCRIPT_ID.test(v), {
    message: 'must be 16 lowercase hex characters',
  }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SECRET_KEY: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  APPLE_CHARTS_URL: z.union([z.literal('off'), urlString(['http:', 'https:'])]),
  APPLE_GENRE_CHARTS_URL: urlString(['http:', 'https:']).refine((v) => v === undefined || v.includes('{genre}'), {
    message: 'must contain {genre}, where each genre id goes (else every genre would import the same chart)',
  }),
  PODCASTINDEX_API_KEY: optionalString,
  PODCASTINDEX_API_SECRET: optionalString,
  AI_URL: urlString(['http:', 'https:']),
  AI_MODEL: optionalString,
  AI_API_KEY: optionalString,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_PLUS: optionalString,
  STRIPE_PRICE_PRO: optionalString,
  STRIPE_PRICE_BUSINESS: optionalString,
  STRIPE_API_URL: urlString(['http:', 'https:']),
  NODE_ENV: optionalString,
  // Empty is unset, as everywhere; only spaces is refused, not read as unset: someone meant /metrics to be closed.
  METRICS_TOKEN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.trim() !== '', { message: 'is only whitespace; set a token, or leave it unset for an open /metrics' })
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  SHUTDOWN_GRACE_SECONDS: numberVar((n) => n.int().min(1).max(3600).default(25)),
  SHUTDOWN_DELAY_SECONDS: numberVar((n) => n.min(0).max(300).default(0)),
  QUEUE_RETENTION_DAYS: numberVar((n) => n.int().min(1).max(3650).default(30)),
  // 0 would let one lock held elsewhere take every pooled connection for as long as it is held.
  DATABASE_STATEMENT_TIMEOUT: numberVar((n) => n.min(0.1).max(3600).default(15)),
  OTEL_EXPORTER_OTLP_ENDPOINT: urlString(['http:', 'https:']),
  // The exporter speaks OTLP/HTTP with JSON bodies; another protocol would be silently ignored.
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/json'], { message: 'only http/json is supported (OTLP over HTTP with JSON bodies)' }).optional(),
  OTEL_SERVICE_NAME: optionalString,
  // Read by the exporter itself, which ignores a bad value with no word: checked here so that it stops the start instead.
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: urlString(['http:', 'https:']),
  OTEL_EXPORTER_OTLP_HEADERS: optionalString.refine((v) => v === undefined || v.split(',').every((h) => /^\s*[^\s=,]+\s*=\s*\S.*$/.test(h)), {
    message: 'must be a comma list of name=value, like api-key=secret',
  }),
  OTEL_BSP_SCHEDULE_DELAY: numberVar((n) => n.int().min(0).max(3_600_000).optional()),
});

/** Every environment variable Podtext reads: the README's Configuration table lists each (a test holds them together). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export type EngineName = z.infer<typeof engineName>;

/** Settings of one speech-recognition lane. */
export interface LaneConfig {
  /** Engine name. Default: `sphinx`. */
  engine: EngineName;
  /** Endpoint for `openai`, or the program's path for `whisper-cpp` (default: `whisper-cli` on the PATH). */
  url?: string;
  /** Model name (`openai`) or ggml model file (`whisper-cpp`). */
  model?: string;
  apiKey?: string;
}

/** Billing through Stripe; present only when `STRIPE_SECRET_KEY` is set. */
export interface StripeConfig {
  /** Secret API key (`sk_…`): turns billing on. */
  secretKey: string;
  /** Signing secret of the webhook endpoint `{site_url}/billing/webhook` (`whsec_…`). */
  webhookSecret: string;
  /** Price id each paid plan is sold at: the first of its `STRIPE_PRICE_*` list. */
  prices: { plus: string; pro: string; business: string };
  /**
   * Earlier price ids of each plan (the rest of its `STRIPE_PRICE_*` list):
   * no longer sold, but subscriptions still on them keep the plan. Default: none.
   */
  earlierPrices: { plus: string[]; pro: string[]; business: string[] };
  /** Base URL of the Stripe API. Default: Stripe's own (`https://api.stripe.com`). */
  apiUrl?: string;
}

/** Every Podtext setting, read and validated once at start. */
export interface Config {
  /** Where the daily chart import reads Apple's charts; null: no daily import (`APPLE_CHARTS_URL=off`). */
  charts: ChartSources | null;
  /** HTTP port. Default: 8080. */
  port: number;
  /** Listen address. Default: 127.0.0.1. */
  host: string;
  /** `{site_url}` without a trailing slash. Default: `http://localhost:$PORT`, with the port bound (see `withBoundPort`). */
  siteUrl: string;
  /** True when SITE_URL is unset: the site URL is `http://localhost:<the port bound>`. */
  siteUrlFollowsPort: boolean;
  /** `{base_url}`: `$SITE_URL/api/v1`. */
  baseUrl: string;
  /** Absolute data directory: PGlite files, outbox, scratch audio, generated secrets. Default: ./data. */
  dataDir: string;
  /** PostgreSQL connection string; unset means embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** SMTP server URL; unset means `.eml` files in `$DATA_DIR/outbox/`. */
  smtpUrl?: string;
  /** Sender of every mail. Default: `Podtext <no-reply@localhost>`. */
  mailFrom: string;
  /** Which loops this process runs. Default: `all`. */
  role: 'api' | 'worker' | 'all';
  /** Transcription workers in this process. Default: number of cores. */
  workers: number;
  standardLane: LaneConfig;
  /**
   * The fast lane's engine; null (the default, FAST_ASR_ENGINE unset) means
   * there is no fast lane and `fast: true` is refused. Never the standard
   * lane's CPU engine: a fast lane that is not faster is not offered.
   */
  fastLane: LaneConfig | null;
  /** Chunks of one fast-lane episode sent to the fast engine at once (FAST_ASR_CONCURRENCY). Default: 8. */
  fastConcurrency: number;
  /** `host:port` pairs exempt from the private-address guard. Default: none. */
  outboundAllow: string[];
  /** Seconds to wait after each failed webhook attempt. Default: 60,300,900,3600,14400. */
  webhookRetrySchedule: number[];
  /**
   * Seconds between checks of a transcribed episode's audio for re-spliced
   * ads (each episode's checks are spread over ±25 % of it). Default: 21600 (6 hours).
   */
  audioCheckIntervalSeconds: number;
  /** The public sample episode; unset means the one shipped with Podtext. */
  sampleTranscriptId?: string;
  /** pino level. Default: info. */
  logLevel: string;
  /** Secret for encrypting stored keys; unset means one generated into dataDir. */
  secretKey?: string;
  podcastIndex?: { key: string; secret: string };
  ai?: { url: string; model: string; apiKey?: string };
  /** Paid plans through Stripe; unset: billing off (checkout answers `billing_not_configured`). */
  stripe?: StripeConfig;
  /** True when NODE_ENV=production: introspection and suggestions off. */
  production: boolean;
  /** When set, `GET /metrics` needs `Authorization: Bearer <token>`. Default: unset (open). */
  metricsToken?: string;
  /** Longest a SIGTERM/SIGINT shutdown may take before the process exits anyway, in seconds. Default: 25. */
  shutdownGraceSeconds: number;
  /** Time between readiness turning 503 and the listener closing, for load balancers to notice, in seconds. Default: 0. */
  shutdownDelaySeconds: number;
  /** Days finished transcription tasks and finished webhook deliveries are kept before pruning. Default: 30. */
  queueRetentionDays: number;
  /**
   * PostgreSQL only: longest a statement of a request or a worker may run, in
   * seconds, before it is cancelled and the call answered 503 (busy); admin
   * commands (imports, migrations) run without it. Default: 5.
   */
  statementTimeoutSeconds: number;
  /** OpenTelemetry tracing; unset (neither `OTEL_EXPORTER_OTLP_ENDPOINT` nor `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): off. */
  tracing?: { endpoint: string; serviceName: string };
}

/** Thrown when a variable has a bad value; the message names the variable. */
export class ConfigError extends Error {}

/**
 * The fast lane exists only with an engine that is faster than the standard
 * lane's: an OpenAI-compatible endpoint (a rented GPU) or a whisper.cpp build
 * other than the standard lane's. Anything else is refused at start rather
 * than sold as fast.
 */
function fastLaneOf(e: z.infer<typeof envSchema>): LaneConfig | null {
  const urlProblems = [laneUrlProblem('ASR_URL', e.ASR_ENGINE, e.ASR_URL), laneUrlProblem('FAST_ASR_URL', e.FAST_ASR_ENGINE, e.FAST_ASR_URL)].filter(Boolean);
  if (urlProblems.length) throw new ConfigError(`Invalid configuration:\n  ${urlProblems.join('\n  ')}`);
  // Checked here with the fast lane's own: without a server to send audio to, every request would wait forever.
  if (e.ASR_ENGINE === 'openai' && !e.ASR_URL) {
    throw new ConfigError('Invalid configuration:\n  ASR_ENGINE: openai needs ASR_URL (the OpenAI-compatible server, e.g. http://asr-host:8000/v1)');
  }
  if (!e.FAST_ASR_ENGINE) return null;
  const fast: LaneConfig = { engine: e.FAST_ASR_ENGINE, url: e.FAST_ASR_URL, model: e.FAST_ASR_MODEL, apiKey: e.FAST_ASR_API_KEY };
  const fail = (m: string) => new ConfigError(`Invalid configuration:\n  FAST_ASR_ENGINE: ${m}`);
  if (fast.engine === 'sphinx') throw fail('sphinx runs on the CPU like the standard lane, so it cannot be a fast lane; set openai (with FAST_ASR_URL) or a GPU build of whisper-cpp, or leave it unset for no fast lane');
  if (fast.engine === 'openai' && !fast.url) throw fail('openai needs FAST_ASR_URL (the OpenAI-compatible server, e.g. http://gpu-host:8000/v1)');
  const standard = { engine: e.ASR_ENGINE, url: e.ASR_URL, model: e.ASR_MODEL };
  if (fast.engine === standard.engine && fast.url === standard.url && fast.model === standard.model) {
    throw fail('the same engine, URL and model as the standard lane is not faster; point FAST_ASR_URL at a faster build or server, or leave it unset');
  }
  return fast;
}

/**
 * What is wrong with a lane's `*_URL`, or null. whisper.cpp runs as a program
 * on the worker, so its `*_URL` names that program (a GPU build beside the
 * CPU one, say), never a server; every other engine takes an http(s) URL.
 */
function laneUrlProblem(name: string, engine: EngineName | undefined, value: string | undefined): string | null {
  if (value === undefined) return null;
  const isHttpUrl = URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);
  if (engine === 'whisper-cpp') {
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
      ? `${name}: whisper-cpp runs whisper.cpp's program on the worker, so this is its path (like /opt/whisper.cpp/build/bin/whisper-cli), not a server's URL; a whisper.cpp server is the openai engine`
      : null;
  }
  return isHttpUrl ? null : `${name}: must be a URL (http: or https:)`;
}

/** A `STRIPE_PRICE_*` value: the price sold, then earlier prices of the plan, comma-separated. */
function priceList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((p) => p.trim());
}

/**
 * What would make billing go wrong silently: a publishable key (`pk_…`) that
 * cannot call the API, a webhook secret that no Stripe signature can match,
 * one price for two plans (a Plus purchase would be read as the other plan),
 * or an empty entry in a plan's list of prices.
 */
function stripeProblems(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (!/^(sk|rk)_/.test(e.STRIPE_SECRET_KEY ?? '')) problems.push('STRIPE_SECRET_KEY: must be a secret or restricted key (sk_… or rk_…), not a publishable one');
  if (!e.STRIPE_WEBHOOK_SECRET?.startsWith('whsec_')) problems.push("STRIPE_WEBHOOK_SECRET: must be the endpoint's signing secret (whsec_…)");
  const lists = [['STRIPE_PRICE_PLUS', e.STRIPE_PRICE_PLUS], ['STRIPE_PRICE_PRO', e.STRIPE_PRICE_PRO], ['STRIPE_PRICE_BUSINESS', e.STRIPE_PRICE_BUSINESS]] as const;
  const seen = new Map<string, string>();
  for (const [name, value] of lists) {
    const prices = priceList(value);
    if (prices.some((p) => p === '')) problems.push(`${name}: an empty price id in the list; write the price sold, then earlier ones, separated by commas`);
    for (const price of prices.filter(Boolean)) {
      const other = seen.get(price);
      if (other && other !== name) problems.push(`${name}: the same price as ${other} (${price}); each plan needs its own prices`);
      else seen.set(price, name);
    }
  }
  return problems;
}

/**
 * Reads and validates the environment once.
 * @example const config = loadConfig(process.env);
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`ROLE=`, `PORT=`) counts as unset, whatever its kind: it gets its default.
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const siteUrl = (e.SITE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const tracingEndpoint = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (e.AI_URL && !e.AI_MODEL) throw new ConfigError('Invalid configuration:\n  AI_MODEL: required when AI_URL is set');
  // The delay is part of the grace period, as is a second for closing the database: a longer one closed the listener only when the shutdown was cut short.
  if (e.SHUTDOWN_DELAY_SECONDS > 0 && e.SHUTDOWN_DELAY_SECONDS + 1 >= e.SHUTDOWN_GRACE_SECONDS) {
    throw new ConfigError(
      `Invalid configuration:\n  SHUTDOWN_DELAY_SECONDS: ${e.SHUTDOWN_DELAY_SECONDS} leaves no time within SHUTDOWN_GRACE_SECONDS (${e.SHUTDOWN_GRACE_SECONDS}) for requests in flight and closing the database; raise SHUTDOWN_GRACE_SECONDS above ${e.SHUTDOWN_DELAY_SECONDS + 1}`,
    );
  }
  if ((e.PODCASTINDEX_API_KEY === undefined) !== (e.PODCASTINDEX_API_SECRET === undefined)) {
    throw new ConfigError('Invalid configuration:\n  PODCASTINDEX_API_SECRET: set both PODCASTINDEX_API_KEY and PODCASTINDEX_API_SECRET, or neither');
  }
  let stripe: StripeConfig | undefined;
  // The rest of Stripe's settings without the key that turns billing on (a misspelt or forgotten
  // STRIPE_SECRET_KEY) would leave billing off without a word, and Stripe's events refused.
  const companions = (['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PLUS', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_BUSINESS'] as const).filter((name) => e[name]);
  if (!e.STRIPE_SECRET_KEY && companions.length) {
    throw new ConfigError(`Invalid configuration:\n  STRIPE_SECRET_KEY: required when ${companions.join(', ')} ${companions.length > 1 ? 'are' : 'is'} set (without it billing is off); set it, or unset ${companions.length > 1 ? 'those' : companions[0]}`);
  }
  if (e.STRIPE_SECRET_KEY) {
    const required = ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PLUS', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_BUSINESS'] as const;
    const missing = required.filter((name) => !e[name]);
    if (missing.length) throw new ConfigError(`Invalid configuration:\n  ${missing.map((m) => `${m}: required when STRIPE_SECRET_KEY is set`).join('\n  ')}`);
    const problems = stripeProblems(e);
    if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    stripe = {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
      prices: { plus: priceList(e.STRIPE_PRICE_PLUS)[0]!, pro: priceList(e.STRIPE_PRICE_PRO)[0]!, business: priceList(e.STRIPE_PRICE_BUSINESS)[0]! },
      earlierPrices: { plus: priceList(e.STRIPE_PRICE_PLUS).slice(1), pro: priceList(e.STRIPE_PRICE_PRO).slice(1), business: priceList(e.STRIPE_PRICE_BUSINESS).slice(1) },
      apiUrl: e.STRIPE_API_URL,
    };
  }
  return {
    port: e.PORT,
    host: e.HOST,
    siteUrl,
    siteUrlFollowsPort: e.SITE_URL === undefined,
    baseUrl: `${siteUrl}/api/v1`,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    role: e.ROLE,
    workers: e.WORKERS ?? os.availableParallelism(),
    standardLane: { engine: e.ASR_ENGINE, url: e.ASR_URL, model: e.ASR_MODEL, apiKey: e.ASR_API_KEY },
    fastLane: fastLaneOf(e),
    fastConcurrency: e.FAST_ASR_CONCURRENCY,
    outboundAllow: e.OUTBOUND_ALLOW,
    webhookRetrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
    audioCheckIntervalSeconds: e.AUDIO_CHECK_INTERVAL,
    sampleTranscriptId: e.SAMPLE_TRANSCRIPT_ID,
    logLevel: e.LOG_LEVEL,
    secretKey: e.SECRET_KEY,
    podcastIndex:
      e.PODCASTINDEX_API_KEY && e.PODCASTINDEX_API_SECRET
        ? { key: e.PODCASTINDEX_API_KEY, secret: e.PODCASTINDEX_API_SECRET }
        : undefined,
    charts:
      e.APPLE_CHARTS_URL === 'off'
        ? null
        : { overall: e.APPLE_CHARTS_URL ?? APPLE_CHART_SOURCES.overall, genre: e.APPLE_GENRE_CHARTS_URL ?? APPLE_CHART_SOURCES.genre },
    ai: e.AI_URL && e.AI_MODEL ? { url: e.AI_URL, model: e.AI_MODEL, apiKey: e.AI_API_KEY } : undefined,
    stripe,
    production: e.NODE_ENV === 'production',
    metricsToken: e.METRICS_TOKEN,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    shutdownDelaySeconds: e.SHUTDOWN_DELAY_SECONDS,
    queueRetentionDays: e.QUEUE_RETENTION_DAYS,
    statementTimeoutSeconds: e.DATABASE_STATEMENT_TIMEOUT,
    // Either endpoint turns tracing on: OpenTelemetry sends to the traces one alone as well.
    tracing: tracingEndpoint ? { endpoint: tracingEndpoint, serviceName: e.OTEL_SERVICE_NAME ?? 'podtext' } : undefined,
  };
}

/**
 * The config once the listener is bound: `PORT=0` asks for any free port, and
 * without SITE_URL every absolute link (registration, `poll_url`,
 * `transcript_url`) must carry the port actually taken, not 0.
 */
export function withBoundPort(config: Config, port: number): Config {
  if (!config.siteUrlFollowsPort) return { ...config, port };
  const siteUrl = `http://localhost:${port}`;
  return { ...config, port, siteUrl, baseUrl: `${siteUrl}/api/v1` };
}
