import type { OutboundClient } from '../../infra/outbound/outbound-client.js';
import { OutboundError } from '../../infra/outbound/outbound-error.js';
import { invalid } from '../errors.js';

/** Longest accepted webhook URL, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Path of a hosted test inbox under `{site_url}`. */
export const INBOX_PATH = '/hooks/inbox/';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID (the shape of job and inbox ids), in either case. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * True when `url` is a test inbox of this Podtext (`{site_url}/hooks/inbox/{id}`).
 * Those are the one exception to "https only": the site runs on plain http in
 * local use, and the request goes to Podtext itself, not to the network.
 */
export function isOwnInboxUrl(url: URL, siteUrl: string): boolean {
  return ownInboxId(url, siteUrl) !== null;
}

/** The id of the test inbox of this Podtext that `url` names, or null. */
export function ownInboxId(url: URL, siteUrl: string): string | null {
  const site = new URL(siteUrl);
  if (url.origin !== site.origin || url.username || url.password || url.search || url.hash) return null;
  const base = `${site.pathname.replace(/\/+$/, '')}${INBOX_PATH}`;
  const id = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : '';
  return isUuid(id) ? id : null;
}

function reason(err: OutboundError): string {
  switch (err.code) {
    case 'bad_scheme':
      return 'must be an https:// URL';
    case 'blocked_address':
      return 'must point at a public address (private, loopback and link-local addresses are refused)';
    case 'network':
      return 'its host does not resolve';
    default:
      return 'not a usable URL';
  }
}

/**
 * Checks a `webhook_url` when it is given (e.g. on `POST /requests`): an
 * absolute https URL whose host resolves to public addresses only, or a test
 * inbox of this Podtext. The check runs again at every delivery, against the
 * address actually connected to, since DNS answers change.
 *
 * @returns the URL normalised (as the WHATWG parser writes it).
 * @throws DomainError `invalid_request` naming `webhook_url`.
 */
export async function checkWebhookUrl(raw: string, deps: { client: OutboundClient; siteUrl: string }): Promise<string> {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw invalid('webhook_url', `longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('webhook_url', 'not an absolute URL');
  }
  if (isOwnInboxUrl(url, deps.siteUrl)) return url.href;
  if (url.protocol !== 'https:') throw invalid('webhook_url', 'must be an https:// URL');
  try {
    await deps.client.checkUrl(url, { httpsOnly: true });
  } catch (err) {
    if (err instanceof OutboundError) throw invalid('webhook_url', reason(err));
    throw err;
  }
  return url.href;
}
