/**
 * An error raised because the client closed the connection while sending its
 * body (Node's `aborted`, code ECONNRESET). Routine (mobile networks,
 * impatient scripts): logged at debug, never taken for a fault. A database
 * socket reset is ECONNRESET too ("read ECONNRESET"), so the code alone says
 * nothing: that one is the database's, answered 503.
 */
export function isClientAbort(err: unknown): boolean {
  // A body stream's error can arrive as its text (seen on /graphql): the string "Error: aborted".
  if (typeof err === 'string') return err === 'aborted' || err === 'Error: aborted';
  const e = err as { code?: string; name?: string; message?: string; cause?: { message?: string } } | null;
  if (!e || typeof e !== 'object') return false;
  return e.message === 'aborted' || e.cause?.message === 'aborted' || e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.name === 'AbortError';
}
