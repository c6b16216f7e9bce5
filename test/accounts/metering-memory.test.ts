import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/accounts/actor.js';
import { createMetering } from '../../src/core/accounts/metering.js';
import { plans } from '../../src/core/pricing.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { pgliteExtensions } from '../../src/infra/db/open-database.js';
import { createLocalEventBus } from '../../src/infra/events/event-bus.js';
import { pgliteTemplate } from '../support/databases.js';
import { fakeClock } from '../support/fake-clock.js';

// The real metering over a real database through a Prisma client that reports
// every statement it sends, so the test can count round trips.
const clock = fakeClock('2026-06-01T12:00:00Z');
const DAY = '2026-06-01';
let lite: PGlite;
let prisma: PrismaClient<'query'>;
let statements: string[] = [];

beforeAll(async () => {
  lite = await PGlite.create({ loadDataDir: await pgliteTemplate(), extensions: pgliteExtensions });
  prisma = new PrismaClient({ adapter: new PrismaPGlite(lite), log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (e) => statements.push(e.query));
});

afterAll(async () => {
  await prisma?.$disconnect();
  await lite?.close();
});

async function accounts(n: number, plan: Actor['plan'] = 'free'): Promise<Actor[]> {
  const made: Actor[] = [];
  for (let i = 0; i < n; i++) made.push({ accountId: randomUUID(), keyId: randomUUID(), plan });
  await prisma.account.createMany({ data: made.map((a) => ({ id: a.accountId, email: `${a.accountId}@example.com`, plan, cycleStartedAt: clock.now() })) });
  return made;
}

async function storedCount(accountId: string): Promise<number> {
  const row = await prisma.requestCounter.findUnique({ where: { accountId_day: { accountId, day: new Date(`${DAY}T00:00:00Z`) } } });
  return row?.count ?? 0;
}

function meteringFor(options: { maxAccounts?: number; flushSlice?: number } = {}) {
  const bus = createLocalEventBus();
  const metering = createMetering({ db: prisma as unknown as PrismaClient, clock, bus, flushEveryMs: 3_600_000, ...options });
  return { bus, metering };
}

describe('request metering stays cheap', () => {
  it('a spent key is refused from memory: a flood of refusals sends no statement, and counts nothing', async () => {
    const [a] = await accounts(1);
    const limit = plans.free.dailyRequests;
    await prisma.requestCounter.create({ data: { accountId: a!.accountId, day: new Date(`${DAY}T00:00:00Z`), count: limit - 1 } });
    const { metering } = meteringFor();
    try {
      expect(await metering.take(a!)).toEqual({ allowed: true, limit, remaining: 0 });
      expect(await metering.take(a!)).toEqual({ allowed: false, limit, remaining: 0 });
      statements = [];
      for (let i = 0; i < 500; i++) expect(await metering.take(a!, 1 + (i % 3))).toEqual({ allowed: false, limit, remaining: 0 });
      await metering.flush();
      expect(statements).toEqual([]);
      expect(await storedCount(a!.accountId)).toBe(limit);
    } finally {
      metering.stop();
    }
  });

  it('a remembered refusal ends with the day and with a bigger plan', async () => {
    const [a] = await accounts(1);
    await prisma.requestCounter.create({ data: { accountId: a!.accountId, day: new Date(`${DAY}T00:00:00Z`), count: plans.free.dailyRequests } });
    const { metering } = meteringFor();
    try {
      expect((await metering.take(a!)).allowed).toBe(false);
      expect(await metering.take({ ...a!, plan: 'pro' })).toEqual({ allowed: true, limit: plans.pro.dailyRequests, remaining: plans.pro.dailyRequests - plans.free.dailyRequests - 1 });
      clock.set('2026-06-02T00:00:00Z');
      expect(await metering.take(a!)).toEqual({ allowed: true, limit: plans.free.dailyRequests, remaining: plans.free.dailyRequests - 1 });
    } finally {
      clock.set(`${DAY}T12:00:00Z`);
      metering.stop();
    }
  });

  it('an account change drops what is remembered, so a count lowered by an operator is read again', async () => {
    const [a] = await accounts(1);
    const day = new Date(`${DAY}T00:00:00Z`);
    await prisma.requestCounter.create({ data: { accountId: a!.accountId, day, count: plans.free.dailyRequests } });
    const { bus, metering } = meteringFor();
    try {
      expect((await metering.take(a!)).allowed).toBe(false);
      await prisma.requestCounter.update({ where: { accountId_day: { accountId: a!.accountId, day } }, data: { count: 10 } });
      expect((await metering.take(a!)).allowed).toBe(false);
      await bus.publish({ type: 'account.changed', accountId: a!.accountId });
      expect(await metering.take(a!)).toEqual({ allowed: true, limit: plans.free.dailyRequests, remaining: plans.free.dailyRequests - 11 });
    } finally {
      metering.stop();
    }
  });

  it('200 accounts with pending counts are written by a statement per slice, not per account, each count exact', async () => {
    const many = await accounts(200, 'business');
    const { metering } = meteringFor({ flushSlice: 64 });
    try {
      for (const [i, a] of many.entries()) for (let n = 0; n <= i % 5; n++) await metering.take(a);
      statements = [];
      await metering.flush();
      expect(statements.filter((s) => /request_counters/.test(s))).toHaveLength(4);
      const rows = await prisma.requestCounter.findMany({ where: { accountId: { in: many.map((a) => a.accountId) } } });
      expect(rows).toHaveLength(200);
      const byId = new Map(rows.map((r) => [r.accountId, r.count]));
      for (const [i, a] of many.entries()) expect(byId.get(a.accountId)).toBe((i % 5) + 1);
      // Nothing is written twice.
      await metering.flush();
      expect(await storedCount(many[0]!.accountId)).toBe(1);
    } finally {
      metering.stop();
    }
  });

  it('remembers at most maxAccounts accounts and loses no count doing so', async () => {
    const many = await accounts(200, 'business');
    const { metering } = meteringFor({ maxAccounts: 50 });
    try {
      for (const round of [1, 2]) {
        for (const a of many) {
          expect((await metering.take(a)).remaining).toBe(plans.business.dailyRequests - round);
          expect(metering.size()).toBeLessThanOrEqual(50);
        }
      }
      await metering.flush();
      for (const a of many) expect(await storedCount(a.accountId)).toBe(2);
    } finally {
      metering.stop();
    }
  });
});
