import { describe, expect, it } from 'vitest';
import { endpointKey, isBlockedAddress, parseHostPort } from './address-guard.js';

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['0.0.0.0', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['198.18.0.1', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    ['224.0.0.1', true],
    ['169.254.169.254', true],
    ['::1', true],
    ['[::1]', true],
    ['::', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::a9fe:a9fe', true],
    ['fe80::1', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['64:ff9b::7f00:1', true],
    ['2002:7f00:1::', true],
    ['not-an-ip', true],
    ['', true],
    ['93.184.216.34', false],
    ['172.32.0.1', false],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
  ])('%s → blocked %s', (ip, blocked) => {
    expect(isBlockedAddress(ip)).toBe(blocked);
  });
});

describe('parseHostPort', () => {
  it('normalises hosts the way request URLs are normalised', () => {
    expect(parseHostPort('127.1:80')).toEqual({ host: '127.0.0.1', port: 80 });
    expect(parseHostPort('[::1]:8080')).toEqual({ host: '[::1]', port: 8080 });
    expect(parseHostPort('MinIO:9000')).toEqual({ host: 'minio', port: 9000 });
  });

  it.each(['127.0.0.1', 'host:0', 'host:70000', 'http://x:1', ''])('refuses %j', (entry) => {
    expect(() => parseHostPort(entry)).toThrow(/host:port/);
  });

  it('keys a URL by host and effective port', () => {
    expect(endpointKey(new URL('http://Example.com/x'))).toBe('example.com:80');
    expect(endpointKey(new URL('https://example.com/x'))).toBe('example.com:443');
    expect(endpointKey(new URL('http://[::1]:81/'))).toBe('[::1]:81');
  });
});
