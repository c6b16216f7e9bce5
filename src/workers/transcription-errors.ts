import type { TaskFailure } from '../core/jobs/task-api.js';
import { AsrError } from '../infra/asr/asr-engine.js';
import { AudioError } from '../infra/audio/audio-error.js';
import { OutboundError } from '../infra/outbound/outbound-error.js';

/** Download failures no retry can mend: the URL or its address is refused, or the file is over the cap. */
const PERMANENT_DOWNLOAD = new Set(['blocked_address', 'bad_scheme', 'bad_url', 'too_large']);

/** The URL as a job's error may show it: no user info, query or fragment, which may carry tokens. */
function shownUrl(url: string | undefined): string | null {
  if (!URL.canParse(url ?? '')) return null;
  const shown = new URL(url!);
  shown.username = shown.password = shown.search = shown.hash = '';
  return shown.href;
}

/**
 * Turns what a pipeline stage threw into a task failure. Most failures are
 * retried a bounded number of times (a 404 or an HTML error page may be a
 * passing fault of the host); facts about the file or the request are not.
 * With `nameUrl`, a download failure names the URL that failed (the index's
 * audio may not be the URL a request gave), query left out. Default: false.
 *
 * @example classifyFailure(err, { nameUrl: true }).message // 'download of https://host/ep.mp3: server answered 404'
 */
export function classifyFailure(err: unknown, { nameUrl = false } = {}): TaskFailure {
  if (err instanceof OutboundError) {
    const url = nameUrl ? shownUrl(err.details.url) : null;
    return { message: `download${url ? ` of ${url}` : ''}: ${err.message}`, permanent: PERMANENT_DOWNLOAD.has(err.code) };
  }
  if (err instanceof AudioError) {
    return { message: `audio: ${err.message}`, permanent: err.code === 'too_long' || err.code === 'damaged' };
  }
  if (err instanceof AsrError) {
    return { message: `recognition: ${err.message}`, permanent: err.code === 'unsupported_language' };
  }
  return { message: err instanceof Error ? err.message : String(err), permanent: false };
}
