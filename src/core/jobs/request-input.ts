import { invalid } from '../errors.js';
import { normaliseEmail } from '../accounts/registration.js';
import { OTHER_ADDRESS_JOBS_PER_DAY } from './notify-limit.js';

/** Episodes one `POST /requests` may name (spec section 8). */
export const MAX_EPISODES_PER_REQUEST = 25;

/** One episode as a client names it: from an episode list of ours or of any feed. */
export interface RequestItem {
  guid: string;
  /** The audio URL (`audio_url` of the episode list). */
  url: string;
  title?: string | null;
  date?: string | null;
  /** Length in seconds; sets the price. */
  secs?: number | null;
}

/** `POST /requests` and GraphQL `requestTranscription`, as the adapters pass them. */
export interface TranscriptionRequestInput {
  episodes: RequestItem[];
  email?: string | null;
  webhookUrl?: string | null;
  dryRun?: boolean | null;
  fast?: boolean | null;
}

export interface CheckedItem {
  guid: string;
  url: string;
  title: string | null;
  date: Date | null;
  secs: number | null;
}

export interface CheckedRequest {
  items: CheckedItem[];
  email: string | null;
  webhookUrl: string | null;
  dryRun: boolean;
  fast: boolean;
}

/** What `secs` and `email` mean, for both adapters' descriptions. */
export const REQUEST_FIELD_DOCS = {
  secs: 'Duration in seconds; sets the price. Audio longer than the hours paid for fails and is refunded; hours billed beyond the real length are refunded when the job is done.',
  email: `Defaults to the account's address. At most ${OTHER_ADDRESS_JOBS_PER_DAY} jobs a day (UTC) may notify another address (429 \`rate_limited\` naming \`email\` beyond that); the account's own is not limited.`,
} as const;

/** Longest guid, URL or title accepted, in characters. */
export const MAX_TEXT = 2048;
/** Longest `secs` accepted: a week, far past any episode we would transcribe. */
export const MAX_SECS = 7 * 24 * 3600;

/** `value` as an absolute http(s) URL; `wrong` says what `field` must be when it is not one. */
function httpUrl(value: string, field: string, wrong = 'must be an http or https URL'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, wrong);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(field, wrong);
  if (url.username || url.password) throw invalid(field, 'must not carry a user name or password');
  return url.href;
}

function text(value: unknown, field: string, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw invalid(field, 'is required');
    return null;
  }
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  const trimmed = value.trim();
  // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
  if (trimmed.includes('\u0000')) throw invalid(field, 'must not contain NUL characters');
  if (required && trimmed === '') throw invalid(field, 'must not be empty');
  if (trimmed.length > MAX_TEXT) throw invalid(field, `must be at most ${MAX_TEXT} characters`);
  return trimmed === '' ? null : trimmed;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * False for a day the calendar does not have ("2024-02-30", "31 Feb 2024"),
 * which `Date` quietly rolls into the next month.
 */
function calendarDay(text: string): boolean {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const rfc = /\b(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})\b/.exec(text);
  const [year, month, day] = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : rfc ? [Number(rfc[3]), MONTHS.indexOf(rfc[2]!.toLowerCase()) + 1, Number(rfc[1])] : [0, 0, 0];
  if (year === 0) return true;
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The one place the request rules live, for both adapters: 1 to 25 episodes,
 * each with a guid and an http(s) audio URL, `secs` a whole number ≥ 0,
 * `webhook_url` https only, `email` an address.
 * @throws DomainError `invalid_request` naming the field (`episodes.3.url: …`).
 */
export function checkRequestInput(input: TranscriptionRequestInput): CheckedRequest {
  if (!Array.isArray(input.episodes)) throw invalid('episodes', 'must be an array');
  if (input.episodes.length === 0) throw invalid('episodes', 'name at least one episode');
  if (input.episodes.length > MAX_EPISODES_PER_REQUEST) {
    throw invalid('episodes', `at most ${MAX_EPISODES_PER_REQUEST} episodes per request (got ${input.episodes.length})`);
  }
  const items = input.episodes.map((raw, i): CheckedItem => {
    const at = `episodes.${i}`;
    const guid = text(raw?.guid, `${at}.guid`, true)!;
    const url = httpUrl(text(raw?.url, `${at}.url`, true)!, `${at}.url`);
    // A title is one line wherever it is shown (pages, the completion mail): line breaks and tabs become spaces.
    // One line, shown as written: control characters, line and paragraph separators and the
    // direction overrides that make "Gone \u202Egnp.exe" read "Gone exe.png" become spaces.
    const title = text(raw?.title, `${at}.title`, false)?.replace(/ *[\u0001-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+ */g, ' ') ?? null;
    const dateText = text(raw?.date, `${at}.date`, false);
    const date = dateText === null ? null : new Date(dateText);
    if (date && (Number.isNaN(date.getTime()) || !calendarDay(dateText!))) throw invalid(`${at}.date`, 'must be a date (ISO 8601 or RFC 2822)');
    // Date reaches back to the year -271821, the database only to 4713 BC, and a year 0 or
    // before it is no episode's date anyway ("0000-01-01" is a feed's placeholder).
    if (date && (date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999)) throw invalid(`${at}.date`, 'must be a date between the years 1 and 9999');
    const secs = raw?.secs ?? null;
    if (secs !== null && (typeof secs !== 'number' || !Number.isInteger(secs) || secs < 0 || secs > MAX_SECS)) {
      throw invalid(`${at}.secs`, `must be a whole number of seconds from 0 to ${MAX_SECS}`);
    }
    return { guid, url, title, date, secs };
  });
  const given = text(input.email, 'email', false);
  // The rule registration uses: one plain address, nothing a mail header would read as more.
  const email = given === null ? null : normaliseEmail(given);
  const hook = text(input.webhookUrl, 'webhook_url', false);
  return {
    items,
    email,
    // https only, except this instance's own test inbox: the webhooks module decides (see create-request).
    webhookUrl: hook === null ? null : httpUrl(hook, 'webhook_url', 'must be an https:// URL'),
    dryRun: input.dryRun === true,
    fast: input.fast === true,
  };
}
