import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isBlockedAddress } from './address-guard.js';
import { OutboundError } from './outbound-error.js';

/** Resolves a host name to its addresses (IPv4 and IPv6 literals as strings). */
export type Resolver = (host: string) => Promise<string[]>;

/** The operating system's resolver (honours /etc/hosts), all families. */
export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

function wantedFamily(options: LookupOptions | number | undefined): 0 | 4 | 6 {
  const family = typeof options === 'number' ? options : options?.family;
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * A `lookup` for node:net that checks the very addresses the socket will
 * connect to, so a DNS answer cannot change between a check and the connect.
 * When `guard` is true, one blocked address in the answer refuses the whole
 * name: a name that mixes public and private answers is an attack, not a
 * mistake.
 */
export function createGuardedLookup(resolve: Resolver, guard: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = wantedFamily(options as LookupOptions | number | undefined);
    resolve(hostname).then(
      (addresses) => {
        const blocked = guard ? addresses.find((address) => isBlockedAddress(address)) : undefined;
        if (blocked !== undefined) {
          callback(
            new OutboundError('blocked_address', `${hostname} does not resolve to a public address`, {
              address: blocked,
            }) as unknown as NodeJS.ErrnoException,
            '',
          );
          return;
        }
        const usable: LookupAddress[] = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => entry.family !== 0 && (family === 0 || entry.family === family));
        if (usable.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, '');
          return;
        }
        if ((options as LookupOptions | undefined)?.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
