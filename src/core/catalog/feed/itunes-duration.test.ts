import { describe, expect, it } from 'vitest';
import { parseItunesDuration } from './itunes-duration.js';

describe('parseItunesDuration', () => {
  it.each([
    ['3600', 3600],
    ['10475', 10475],
    ['3600.4', 3600],
    ['3600.6', 3601],
    ['7:04', 424],
    ['04:19', 259],
    ['75:30', 4530],
    ['1:02:03', 3723],
    ['00:55:40', 3340],
    ['12:00:00', 43200],
    ['1:02:03.5', 3724],
    [' 42:10 ', 2530],
  ])('%j → %d s', (raw, seconds) => {
    expect(parseItunesDuration(raw)).toBe(seconds);
  });

  it.each([
    ['0:00'],
    ['0'],
    ['00:00:00'],
    [''],
    [null],
    [undefined],
    ['https://www.mediafire.com/file/ounwlem8zz8bi6d/082021a.mp3'],
    ['1:75'],
    ['1:60:00'],
    ['1:2:3:4'],
    ['-5'],
    ['abc'],
    ['1h 2m'],
    ['200:00:00'],
  ])('%j → null', (raw) => {
    expect(parseItunesDuration(raw)).toBeNull();
  });
});
