/**
 * A start or command that cannot go on for a reason the operator must mend
 * (a setting, a directory, a file): printed as its message, without a stack,
 * and the process exits with `exitCode` (2 for a setting, as a bad value is).
 */
export class OperatorError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}

/** What a command prints for a failure: a file the operator named is said plainly, not as a system call. */
export function commandMessage(err: unknown, file?: string): string {
  const e = err as NodeJS.ErrnoException;
  const named = file ?? e.path;
  if (named) {
    if (e.code === 'ENOENT') return `No such file or directory: ${named}`;
    if (e.code === 'EISDIR') return `${named} is a directory: name a file`;
    if (e.code === 'EACCES' || e.code === 'EPERM') return `Permission denied: ${named}`;
    if (e.code === 'ENOTDIR') return `A part of ${named} is not a directory`;
  }
  return e instanceof Error ? e.message : String(err);
}
