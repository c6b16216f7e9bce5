import { describe, expect, it } from 'vitest';
import { humanDuration } from './delivery-text.js';

describe('humanDuration', () => {
  it('says how long as people say it, one second included', () => {
    expect([0, 1, 40, 90, 3600, 7200].map(humanDuration)).toEqual(['1 second', '1 second', '40 seconds', 'about 2 minutes', 'about 60 minutes', 'about 2 hours']);
  });
});
