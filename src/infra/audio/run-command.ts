import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface RunCommandOptions {
  /** Wall-clock limit in milliseconds; the process is killed (SIGKILL) past it. */
  timeoutMs: number;
  /**
   * Limit on the CPU time the process uses (user + system), in milliseconds;
   * past it the process is killed and `timedOut` set. Unlike wall time it
   * does not run out faster on a loaded machine, where the process simply
   * gets less of a core. Read from /proc about once a second (Linux); where
   * /proc is missing only `timeoutMs` applies.
   */
  cpuLimitMs?: number;
  /** Aborting kills the process. */
  signal?: AbortSignal;
  /** Most stdout kept, in bytes; past it the process is killed and `overflowed` set. Default: 32 MiB. */
  maxStdoutBytes?: number;
  /** Only the last this-many bytes of stderr are kept (enough for an error message). Default: 16 KiB. */
  stderrTailBytes?: number;
  /** Called for each complete stderr line, for tools that report results there (silencedetect). */
  onStderrLine?: (line: string) => void;
}

export interface RunCommandResult {
  exitCode: number | null;
  killedBy: NodeJS.Signals | null;
  stdout: string;
  stderrTail: string;
  timedOut: boolean;
  aborted: boolean;
  overflowed: boolean;
}

/**
 * Signals that stop a program from outside: a terminal's Ctrl-C or a service
 * manager's stop reaches the whole process group, the tools below Podtext
 * included, often before Podtext's own handler has run. (Podtext itself only
 * ever sends SIGKILL.)
 */
const STOP_SIGNALS: ReadonlySet<string> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP']);

/** The program was stopped from outside by a stop signal: an interruption, not a fault of its input. */
export class CommandInterrupted extends Error {
  constructor(
    readonly command: string,
    readonly signal: NodeJS.Signals,
  ) {
    super(`${command} was stopped by ${signal}`);
    this.name = 'CommandInterrupted';
  }
}

/**
 * util-linux's `setpriv` (in every Debian): a program started through
 * `setpriv --pdeathsig KILL` is killed by the kernel when Podtext's process
 * dies, even by SIGKILL or the OOM killer, instead of decoding on for
 * minutes with no one to read its answer (and again when the restarted
 * process retries the task). setpriv then runs the program in its own place:
 * same pid, same signals.
 */
const SETPRIV = '/usr/bin/setpriv';
let setprivInstalled: boolean | undefined;

/** setpriv's own exit when it cannot start the program: 127 not found, 126 not executable. */
function startFailure(exitCode: number | null, stderr: string, command: string): NodeJS.ErrnoException | null {
  if ((exitCode !== 127 && exitCode !== 126) || !stderr.startsWith('setpriv: failed to execute')) return null;
  const code = exitCode === 127 ? 'ENOENT' : 'EACCES';
  return Object.assign(new Error(`spawn ${command} ${code}`), { code, path: command, syscall: 'spawn' });
}

/**
 * Runs a program without a shell and with stdin closed, bounded in time and
 * output. Resolves whatever the exit status (callers judge it); rejects when
 * the program cannot be started (`err.code` is `ENOENT`, `EACCES`, …) and with
 * `CommandInterrupted` when a stop signal from outside ended it.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  opts: RunCommandOptions,
): Promise<RunCommandResult> {
  const maxStdout = opts.maxStdoutBytes ?? 32 * 1024 * 1024;
  const stderrTail = opts.stderrTailBytes ?? 16 * 1024;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      resolve(emptyResult({ aborted: true }));
      return;
    }
    const guarded = (setprivInstalled ??= process.platform === 'linux' && existsSync(SETPRIV));
    const child = guarded
      ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'], shell: false })
      : spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let partialLine = '';
    let timedOut = false;
    let aborted = false;
    let overflowed = false;

    const kill = (): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs);
    const cpuWatch =
      opts.cpuLimitMs === undefined || child.pid === undefined
        ? undefined
        : setInterval(() => {
            void cpuMillis(child.pid!).then((used) => {
              if (used !== null && used > opts.cpuLimitMs!) {
                timedOut = true;
                kill();
              }
            });
          }, CPU_POLL_MS);
    const onAbort = (): void => {
      aborted = true;
      kill();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (b: Buffer) => {
      if (overflowed) return;
      stdoutBytes += b.length;
      if (stdoutBytes > maxStdout) {
        overflowed = true;
        kill();
        return;
      }
      stdout.push(b);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s: string) => {
      stderr = (stderr + s).slice(-stderrTail);
      if (!opts.onStderrLine) return;
      const lines = (partialLine + s).split(/\r?\n|\r/);
      partialLine = lines.pop() ?? '';
      for (const line of lines) opts.onStderrLine(line);
    });

    const cleanup = (): void => {
      clearTimeout(timer);
      clearInterval(cpuWatch);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      cleanup();
      reject(err);
    });
    child.on('close', (exitCode, killedBy) => {
      cleanup();
      const notStarted = guarded ? startFailure(exitCode, stderr, command) : null;
      if (notStarted) {
        reject(notStarted);
        return;
      }
      if (partialLine && opts.onStderrLine) opts.onStderrLine(partialLine);
      if (killedBy && STOP_SIGNALS.has(killedBy) && !aborted && !timedOut && !overflowed) {
        reject(new CommandInterrupted(command, killedBy));
        return;
      }
      resolve({
        exitCode,
        killedBy,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderrTail: stderr,
        timedOut,
        aborted,
        overflowed,
      });
    });
  });
}

const CPU_POLL_MS = 1000;
/** Clock ticks of /proc/<pid>/stat: USER_HZ, 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, all threads) a running process has used, in ms; null when unknown (no /proc, process gone). */
export async function cpuMillis(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // Fields after the command name (which may hold spaces), from field 3 (state): utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
}

function emptyResult(over: Partial<RunCommandResult>): RunCommandResult {
  return {
    exitCode: null,
    killedBy: null,
    stdout: '',
    stderrTail: '',
    timedOut: false,
    aborted: false,
    overflowed: false,
    ...over,
  };
}

/** The last non-empty line of a tool's stderr: usually the one that says what went wrong. */
export function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1] ?? '';
}
