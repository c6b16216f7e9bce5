import ipaddr from 'ipaddr.js';
import { OutboundError } from './outbound-error.js';

/**
 * True when Podtext must not connect to `ip`: anything ipaddr.js does not
 * classify as plain 'unicast' — loopback, RFC 1918, link-local (cloud
 * metadata), CGNAT, benchmarking, reserved, multicast, unspecified,
 * IPv4-mapped and IPv4-compatible IPv6, NAT64, 6to4, Teredo, unique-local. A string that is not
 * an address at all is blocked too.
 *
 * @example isBlockedAddress('169.254.169.254') // true
 */
export function isBlockedAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return true;
  const parsed = ipaddr.parse(bare);
  // IPv4-compatible IPv6 (::/96, deprecated): 'unicast' to ipaddr.js, yet tunnels carry it to the IPv4 address inside.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return true;
  return parsed.range() !== 'unicast';
}

/** A host and port as the WHATWG URL parser normalises them (IPv6 in brackets). */
export interface HostPort {
  host: string;
  port: number;
}

/**
 * Parses an allow-list entry such as `127.0.0.1:4321`, `[::1]:8080` or
 * `minio:9000`. The host goes through the URL parser so that `127.1:80` and
 * `127.0.0.1:80` name the same endpoint. A port is required.
 */
export function parseHostPort(entry: string): HostPort {
  const match = /^(\[[^\]]+\]|[^:/[\]\s]+):(\d{1,5})$/.exec(entry.trim());
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65_535) {
    throw new OutboundError('bad_url', `expected host:port, got "${entry}"`);
  }
  try {
    return { host: new URL(`http://${match[1]}`).hostname, port };
  } catch {
    throw new OutboundError('bad_url', `expected host:port, got "${entry}"`);
  }
}

/** The `host:port` key of a URL, with the scheme's default port filled in. */
export function endpointKey(url: URL): string {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return `${url.hostname}:${port}`;
}
