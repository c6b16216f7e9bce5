import { describe, expect, it } from 'vitest';
import { id3TagLength, sniffContainer } from './container-sniff.js';

const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('sniffContainer', () => {
  it.each([
    ['wav', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['ogg', bytes('OggS', [0, 2, 0, 0])],
    ['flac', bytes('fLaC', [0, 0, 0, 34])],
    ['mov', bytes([0, 0, 0, 0x20], 'ftypM4A ')],
    ['matroska', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f])],
    ['asf', bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66])],
    ['aiff', bytes('FORM', [0, 0, 0, 0], 'AIFF')],
    ['amr', bytes('#!AMR\n')],
    ['mp3', bytes([0xff, 0xfb, 0x90, 0x64, 0x00])],
    ['mp3', bytes([0, 0, 0, 0xff, 0xf3, 0x48, 0xc4])],
    ['aac', bytes([0xff, 0xf1, 0x50, 0x80, 0x02])],
    // The tail of a frame, then two 417-byte MPEG-1 layer III frames (128 kbit/s, 44.1 kHz).
    ['mp3', bytes('tail of a frame', [0xff, 0xfb, 0x90, 0x64], new Array(413).fill(0x55), [0xff, 0xfb, 0x90, 0x64, 0x55])],
  ])('recognises %s', (demuxer, head) => {
    expect(sniffContainer(head)).toBe(demuxer);
  });

  it.each([
    ['an HLS playlist', bytes('#EXTM3U\n#EXTINF:10,\nhttp://169.254.169.254/\n')],
    ['an ffconcat script', bytes('ffconcat version 1.0\nfile /etc/passwd\n')],
    ['HTML', bytes('<!doctype html><title>404</title>')],
    ['JSON', bytes('{"error":"not found"}')],
    ['a PNG', bytes([0x89], 'PNG\r\n\x1a\n')],
    ['an SDP file', bytes('v=0\no=- 0 0 IN IP4 127.0.0.1\n')],
    ['an MPEG sync with a reserved version', bytes([0xff, 0xeb, 0x90, 0x64])],
    ['text with one MPEG frame header in it', bytes('<html>', [0xff, 0xfb, 0x90, 0x64], new Array(413).fill(0x20), '</html>')],
    ['nothing', bytes()],
  ])('refuses %s', (_what, head) => {
    expect(sniffContainer(head)).toBeNull();
  });
});

describe('id3TagLength', () => {
  it('reads the syncsafe size and the footer flag', () => {
    expect(id3TagLength(bytes('ID3', [4, 0, 0, 0, 0, 0x02, 0x01]))).toBe(10 + 257);
    expect(id3TagLength(bytes('ID3', [4, 0, 0x10, 0, 0, 0, 0x10]))).toBe(10 + 16 + 10);
    expect(id3TagLength(bytes('ID3', [4, 0, 0, 0x80, 0, 0, 0]))).toBe(0);
    expect(id3TagLength(bytes('OggS'))).toBe(0);
  });
});
