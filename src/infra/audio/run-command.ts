import { spawn } from 'node:child_process';

export interface RunCommandOptions {
  /** Wall-clock limit in milliseconds; the process is killed (SIGKILL) past it. */
  timeoutMs: number;
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
 * Runs a program without a shell and with stdin closed, bounded in time and
 * output. Resolves whatever the exit status (callers judge it); rejects only
 * when the program cannot be started (`err.code` is `ENOENT`, `EACCES`, …).
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
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
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
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      cleanup();
      reject(err);
    });
    child.on('close', (exitCode, killedBy) => {
      cleanup();
      if (partialLine && opts.onStderrLine) opts.onStderrLine(partialLine);
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
