import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import type { Tracing } from './tracing.js';

/** Longest statement text kept on a span, in characters. */
const MAX_STATEMENT = 2000;

const OPERATION = /^\s*(?:WITH\b[\s\S]*?\)\s*)?(SELECT|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|SET|LOCK|COPY|CREATE|ALTER|DROP|TRUNCATE|LISTEN|NOTIFY)\b/i;
const TABLE = /\b(?:FROM|INTO|UPDATE|JOIN)\s+((?:"[^"]+"\.)?"[^"]+"|[a-z_][a-z0-9_.]*)/i;

/** `SELECT episodes`-style name and the attributes of one statement. */
export function describeStatement(sql: string): { name: string; operation?: string; table?: string } {
  const operation = OPERATION.exec(sql)?.[1]?.toUpperCase();
  const table = TABLE.exec(sql)?.[1]?.replace(/"/g, '').replace(/^public\./, '');
  return { name: operation ? (table ? `${operation} ${table}` : operation) : 'query', operation, table };
}

type Queryable = Pick<SqlDriverAdapter, 'queryRaw' | 'executeRaw'>;

/**
 * Wraps a Prisma driver adapter (PostgreSQL's or PGlite's) so that every
 * statement Podtext's data layer runs is a client span: the one place all
 * Prisma queries, raw SQL and transactions pass. Parameters are never
 * recorded, only the statement with its placeholders. Statements outside any
 * span (the workers' polling) are not traced.
 */
export function tracedAdapter(factory: SqlDriverAdapterFactory, tracing: Tracing, system: 'postgres' | 'pglite'): SqlDriverAdapterFactory {
  const statement = <T>(q: SqlQuery, run: () => Promise<T>) => {
    // Only inside a request, an operation or a delivery: the loops' polling would be a trace per tick.
    if (!tracing.activeIds()) return run();
    const d = describeStatement(q.sql);
    return tracing.inSpan(d.name, {
      kind: 'client',
      attributes: { 'db.system.name': 'postgresql', 'podtext.db.engine': system, 'db.operation.name': d.operation, 'db.collection.name': d.table, 'db.query.text': q.sql.slice(0, MAX_STATEMENT) },
    }, run);
  };
  // Methods are called on the original object: adapters keep private state.
  const wrap = <T extends Queryable>(target: T, extra: (prop: string | symbol) => unknown = () => undefined): T =>
    new Proxy(target, {
      get(t, prop) {
        if (prop === 'queryRaw') return (q: SqlQuery) => statement(q, () => t.queryRaw(q));
        if (prop === 'executeRaw') return (q: SqlQuery) => statement(q, () => t.executeRaw(q));
        const special = extra(prop);
        if (special !== undefined) return special;
        const value = Reflect.get(t, prop, t) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  const wrapAdapter = (adapter: SqlDriverAdapter): SqlDriverAdapter =>
    wrap(adapter, (prop) =>
      prop === 'startTransaction'
        ? async (...args: Parameters<SqlDriverAdapter['startTransaction']>) => wrap<Transaction>(await adapter.startTransaction(...args))
        : undefined,
    );
  return new Proxy(factory, {
    get(t, prop) {
      if (prop === 'connect') return async () => wrapAdapter(await t.connect());
      const value = Reflect.get(t, prop, t) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}
