import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader, signPayload, verifySignature } from './signature.js';

const secret = 'whsec_test-secret';
const now = new Date('2026-03-10T12:00:00Z');
const nowT = Math.floor(now.getTime() / 1000);
const body = JSON.stringify({ event: 'job.done', job: { id: '7f1c2d3e-0000-4000-8000-000000000001', status: 'done', done: 2, total: 2 }, sent_at: now.toISOString() });

const verify = (header: string | undefined, rawBody: string | Buffer = body, secrets = [secret]) => verifySignature({ header, rawBody, secrets, now });

describe('signPayload', () => {
  it('is the hex HMAC-SHA256 of t + "." + raw body, keyed with the secret', () => {
    const expected = createHmac('sha256', secret).update(`${nowT}.${body}`).digest('hex');
    expect(signPayload(secret, nowT, body)).toBe(expected);
    expect(signPayload(secret, nowT, Buffer.from(body))).toBe(expected);
  });
});

describe('verifySignature vectors', () => {
  it('valid', () => {
    expect(verify(signatureHeader([secret], nowT, body))).toEqual({ ok: true, t: nowT });
  });
  it('t = now − 299 s passes; t = now − 300 s passes (the edge)', () => {
    expect(verify(signatureHeader([secret], nowT - 299, body)).ok).toBe(true);
    expect(verify(signatureHeader([secret], nowT - 300, body)).ok).toBe(true);
  });
  it('t = now − 301 s is too old', () => {
    expect(verify(signatureHeader([secret], nowT - 301, body))).toEqual({ ok: false, reason: 'timestamp_too_old' });
  });
  it('t more than 5 minutes ahead is refused too', () => {
    expect(verify(signatureHeader([secret], nowT + 301, body))).toEqual({ ok: false, reason: 'timestamp_in_future' });
  });
  it('one byte of the body changed', () => {
    const changed = Buffer.from(body);
    changed[10] = changed[10]! ^ 1;
    expect(verify(signatureHeader([secret], nowT, body), changed)).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
  it('t tampered (the v1 kept)', () => {
    const header = signatureHeader([secret], nowT, body).replace(`t=${nowT}`, `t=${nowT - 1}`);
    expect(verify(header)).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
  it('missing header', () => {
    expect(verify(undefined)).toEqual({ ok: false, reason: 'missing_header' });
    expect(verifySignature({ header: null, rawBody: body, secrets: [secret], now }).ok).toBe(false);
    expect(verify('')).toEqual({ ok: false, reason: 'missing_header' });
  });
  it('malformed headers', () => {
    expect(verify(`v1=${signPayload(secret, nowT, body)}`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify(`t=${nowT}`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify(`t=abc,v1=00`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify(`t=${nowT},t=${nowT},v1=${signPayload(secret, nowT, body)}`)).toEqual({ ok: false, reason: 'malformed_header' });
  });
  it('two v1 values, one of them valid (a rotation in progress)', () => {
    const good = signPayload(secret, nowT, body);
    const other = signPayload('whsec_other', nowT, body);
    expect(verify(`t=${nowT},v1=${other},v1=${good}`).ok).toBe(true);
    expect(verify(`t=${nowT},v1=${good},v1=${other}`).ok).toBe(true);
    expect(verify(`t=${nowT},v1=${other},v1=${'0'.repeat(64)}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
  it('several candidate secrets: either the old or the new one passes', () => {
    const header = signatureHeader(['whsec_new'], nowT, body);
    expect(verify(header, body, ['whsec_old', 'whsec_new']).ok).toBe(true);
    expect(verify(header, body, ['whsec_old']).ok).toBe(false);
  });
  it('the body re-serialised (same JSON, other bytes) fails', () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect(verify(signatureHeader([secret], nowT, body), reserialised)).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
  it('a wrong-length or non-hex v1 is just unequal', () => {
    expect(verify(`t=${nowT},v1=abc`).ok).toBe(false);
    expect(verify(`t=${nowT},v1=${'z'.repeat(64)}`).ok).toBe(false);
  });
  it('unknown schemes are skipped', () => {
    expect(verify(`t=${nowT},v0=xyz,v1=${signPayload(secret, nowT, body)}`).ok).toBe(true);
  });
  it('an empty secret (a variable set to nothing) is a configuration error, not a key anyone can sign with', () => {
    const forged = signatureHeader([''], nowT, body);
    expect(() => verifySignature({ header: forged, rawBody: body, secrets: [''], now })).toThrow(/non-empty strings/);
    expect(() => verifySignature({ header: forged, rawBody: body, secrets: [], now })).toThrow(/non-empty strings/);
  });
  it("takes the header as Node gives it: a one-element array passes, a repeated header is refused, neither throws", () => {
    const header = signatureHeader([secret], nowT, body);
    expect(verifySignature({ header: [header], rawBody: body, secrets: [secret], now }).ok).toBe(true);
    expect(verifySignature({ header: [header, header], rawBody: body, secrets: [secret], now })).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verifySignature({ header: [], rawBody: body, secrets: [secret], now })).toEqual({ ok: false, reason: 'missing_header' });
  });
});
