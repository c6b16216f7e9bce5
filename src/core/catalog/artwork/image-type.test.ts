import { describe, expect, it } from 'vitest';
import { isRasterContentType, sniffImageType } from './image-type.js';

describe('artwork formats', () => {
  it('knows PNG, JPEG, GIF and WebP by their magic bytes, whatever they are called', () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
  });

  it('refuses SVG, HTML, empty and cut-off bodies', () => {
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(sniffImageType(Buffer.from('<!doctype html><title>Not found</title>'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
    expect(sniffImageType(Buffer.from('RIFF....WAVEfmt '))).toBeNull();
  });

  it('takes raster image content types only', () => {
    expect(isRasterContentType('image/jpeg')).toBe(true);
    expect(isRasterContentType('Image/PNG; charset=binary')).toBe(true);
    expect(isRasterContentType('image/svg+xml')).toBe(false);
    expect(isRasterContentType('text/html; charset=utf-8')).toBe(false);
    expect(isRasterContentType(undefined)).toBe(false);
  });
});
