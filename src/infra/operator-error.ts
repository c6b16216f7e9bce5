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
