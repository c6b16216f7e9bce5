import v8 from 'node:v8';
import { type Config, ConfigError, loadConfig, withBoundPort } from './config.js';
import { bindListener, boot, type Listener } from './boot.js';
import { runAdminCommand } from './cli/admin.js';
import { OperatorError } from './infra/operator-error.js';
import { startTracing, tracing } from './infra/tracing/tracing.js';

/**
 * Long-running processes run WebAssembly (PGlite, Prisma's query compiler) on
 * V8's baseline compiler only. Optimizing PGlite in the background kept ~80 MB
 * of compiler memory for the life of a 100k-show server (RSS ~390 → ~320 MB)
 * and took CPU from requests; searches and episode lists measured faster
 * without it (BENCHMARKS.md). One-off commands keep the optimizing tier: a
 * dump import runs ~15% faster with it. Applies to modules compiled later.
 */
function baselineWasmOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/** The same signal again within this many milliseconds is one signal passed on by a wrapper process. */
const RELAYED_SIGNAL_MS = 500;

/** Binds PORT first (see `bindListener`); a port that cannot be had stops the start naming the variable, as a bad value does. */
async function bindPort(config: Config): Promise<Listener> {
  try {
    return await bindListener(config);
  } catch (err) {
    const why: Record<string, string> = {
      EADDRINUSE: `PORT: ${config.port} is in use on ${config.host}; stop what holds it or set another port (0: any free one)`,
      EACCES: `PORT: ${config.port} needs privileges; set a port above 1023`,
      EADDRNOTAVAIL: `HOST: ${config.host} is not an address of this machine`,
      ENOTFOUND: `HOST: ${config.host} does not resolve to an address`,
      EAI_AGAIN: `HOST: ${config.host} could not be resolved (the name service did not answer)`,
    };
    const message = why[(err as NodeJS.ErrnoException).code ?? ''];
    if (!message) throw err;
    process.stderr.write(`Cannot listen:\n  ${message}\n`);
    process.exit(2);
  }
}

/** Process entry: `serve`, `worker`, or an admin command; none prints the usage (`npm run cli` alone must not start a server). */
async function main(argv: string[]): Promise<void> {
  const [command = '', ...rest] = argv;
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (command === 'serve' || command === 'worker') {
    baselineWasmOnly();
    if (command === 'worker') config = { ...config, role: 'worker' as const };
    // A worker beside an API on one machine must not fight it for the default port: unset, it takes a free one (logged).
    if (config.role === 'worker' && !process.env.PORT?.trim()) config = { ...config, port: 0 };
    // Before boot: everything built with the site URL needs the port bound (PORT=0 picks one).
    const listener = await bindPort(config);
    config = withBoundPort(config, listener.port);
    // Before boot: the database, the HTTP app and the logger look for it once, when built.
    if (config.tracing) await startTracing({ ...config.tracing, role: config.role });
    const podtext = await boot(config, { listener });
    const log = podtext.services.log;
    let stopping: { signal: string; at: number } | null = null;
    const stop = async (signal: string) => {
      if (stopping) {
        // npm, npx and tsx pass on the signal they get, and a terminal's Ctrl-C
        // reaches the whole group: one press can arrive twice within
        // milliseconds. Only a later or a different signal means "out now".
        if (signal === stopping.signal && performance.now() - stopping.at < RELAYED_SIGNAL_MS) return;
        log.warn({ signal }, 'second signal: exiting without waiting');
        process.exit(1);
      }
      stopping = { signal, at: performance.now() };
      const graceMs = config.shutdownGraceSeconds * 1000;
      log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'stopping: readiness is 503, finishing requests in flight');
      // Whatever hangs, the process is gone within the grace period.
      const cutoff = setTimeout(() => {
        log.error({ graceSeconds: config.shutdownGraceSeconds }, 'shutdown took longer than SHUTDOWN_GRACE_SECONDS: exiting');
        process.exit(1);
      }, graceMs);
      cutoff.unref();
      let cutOff: number;
      try {
        // Requests in flight get the grace period less a second for closing the database.
        ({ cutOff } = await podtext.stop({ graceMs: Math.max(500, graceMs - 1000) }));
        // The last spans (the shutdown's own requests) go out before the exit.
        await tracing().shutdown().catch((err: unknown) => log.warn({ err }, 'spans not exported at shutdown'));
      } catch (err) {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      }
      // Clients lost their answers: not a clean stop, whatever the rest did.
      if (cutOff > 0) log.warn({ cutOff, graceSeconds: config.shutdownGraceSeconds }, `stopped: ${cutOff} request(s) still running after SHUTDOWN_GRACE_SECONDS were cut off`);
      else log.info('stopped');
      process.exit(cutOff > 0 ? 1 : 0);
    };
    // Before the start is announced: a signal from then on is always a graceful stop.
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
    // Every role listens: a worker only for /livez, /readyz and /metrics.
    const url = await podtext.listen();
    const where = { url, pid: process.pid, role: config.role, database: podtext.db.kind };
    if (config.role === 'worker') {
      log.info(where, `Podtext worker is serving /livez, /readyz and /metrics on ${url}`);
      if (config.siteUrlFollowsPort) log.warn({ site: config.siteUrl }, 'SITE_URL is not set: links in the webhooks and emails this worker sends would name this worker; set the same SITE_URL as the API processes');
    } else {
      log.info({ ...where, site: config.siteUrl }, `Podtext is serving on ${url}`);
      // Build the show-name index now rather than on the first search.
      const started = performance.now();
      const { showSearch } = podtext.services.discovery;
      showSearch
        .reload()
        .then(() => log.info({ shows: showSearch.size, ms: Math.round(performance.now() - started) }, 'search index loaded'))
        .catch((err: unknown) => log.error({ err }, 'search index warm-up failed'));
    }
    // A signal during the start has begun the stop already: nothing more is started.
    if (config.role !== 'api' && !stopping) podtext.startWorkers();
    return;
  }
  process.exitCode = await runAdminCommand(config, command, rest);
}

main(process.argv.slice(2)).catch((err) => {
  // A data directory held by a running server, or a setting to mend, is an answer, not a crash: no stack.
  process.stderr.write(`${err instanceof OperatorError ? err.message : ((err as Error).stack ?? err)}\n`);
  process.exit(err instanceof OperatorError ? err.exitCode : 1);
});
