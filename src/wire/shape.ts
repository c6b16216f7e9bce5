import { z } from '@hono/zod-openapi';
import type { Links } from '../core/links.js';

/** What a field may need besides the view: the site's links. */
export interface WireContext {
  links: Links;
}

type ScalarKind = 'string' | 'int' | 'float' | 'boolean' | 'datetime';

interface FieldBase<V> {
  description?: string;
  nullable?: boolean;
  /** The GraphQL name, when it is not the camelCase of the wire name. */
  graphql?: string;
  get(view: V, ctx: WireContext): unknown;
}

export interface ScalarField<V> extends FieldBase<V> {
  kind: ScalarKind;
  /** For strings: the values allowed, documented as an enum. */
  values?: readonly [string, ...string[]];
}

export interface ListField<V> extends FieldBase<V> {
  kind: 'list';
  of: Shape<never>;
}

export type Field<V> = ScalarField<V> | ListField<V>;

/**
 * A resource's fields, written once: REST's zod schema (snake_case, with
 * descriptions, for openapi.json), the wire mapper, and the GraphQL type
 * (camelCase, same descriptions; see graphql/shape-type.ts) all come from it.
 */
export interface Shape<V> {
  /** The OpenAPI component name. */
  restName: string;
  /** The GraphQL type name. */
  graphqlName: string;
  description?: string;
  fields: Record<string, Field<V>>;
  zod: z.ZodObject<Record<string, z.ZodTypeAny>>;
  toWire(view: V, ctx: WireContext): Record<string, unknown>;
}

function zodOf(f: Field<never>): z.ZodTypeAny {
  let t: z.ZodTypeAny;
  switch (f.kind) {
    case 'string':
      t = f.values ? z.enum(f.values) : z.string();
      break;
    case 'int':
      t = z.number().int();
      break;
    case 'float':
      t = z.number();
      break;
    case 'boolean':
      t = z.boolean();
      break;
    case 'datetime':
      t = z.string().openapi({ format: 'date-time' });
      break;
    case 'list':
      t = z.array(f.of.zod);
      break;
  }
  if (f.nullable) t = t.nullable();
  return f.description ? t.openapi({ description: f.description }) : t;
}

function wireValue(f: Field<never>, value: unknown, ctx: WireContext): unknown {
  if (value === null || value === undefined) return null;
  if (f.kind === 'datetime') return (value as Date).toISOString();
  if (f.kind === 'list') return (value as never[]).map((v) => f.of.toWire(v, ctx));
  return value;
}

/** Declares a resource's shape once. */
export function shape<V>(names: { rest: string; graphql?: string; description?: string }, fields: Record<string, Field<V>>): Shape<V> {
  const entries = Object.entries(fields) as [string, Field<never>][];
  const zod = z.object(Object.fromEntries(entries.map(([k, f]) => [k, zodOf(f)]))).openapi(names.rest);
  return {
    restName: names.rest,
    graphqlName: names.graphql ?? names.rest,
    description: names.description,
    fields,
    zod: names.description ? zod.openapi({ description: names.description }) : zod,
    toWire(view, ctx) {
      const out: Record<string, unknown> = {};
      for (const [k, f] of entries) out[k] = wireValue(f, f.get(view as never, ctx), ctx);
      return out;
    },
  };
}

type Getter<V> = (view: V, ctx: WireContext) => unknown;
type Options = Pick<FieldBase<never>, 'nullable' | 'graphql'>;

/** Field builders: `field.int('Current balance.', (me) => me.credits)`. */
export const field = {
  string: <V>(description: string | undefined, get: Getter<V>, options: Options & { values?: readonly [string, ...string[]] } = {}): Field<V> => ({ kind: 'string', description, get, ...options }),
  int: <V>(description: string | undefined, get: Getter<V>, options: Options = {}): Field<V> => ({ kind: 'int', description, get, ...options }),
  float: <V>(description: string | undefined, get: Getter<V>, options: Options = {}): Field<V> => ({ kind: 'float', description, get, ...options }),
  boolean: <V>(description: string | undefined, get: Getter<V>, options: Options = {}): Field<V> => ({ kind: 'boolean', description, get, ...options }),
  datetime: <V>(description: string | undefined, get: Getter<V>, options: Options = {}): Field<V> => ({ kind: 'datetime', description, get, ...options }),
  list: <V, W>(of: Shape<W>, description: string | undefined, get: (view: V, ctx: WireContext) => W[], options: Options = {}): Field<V> => ({ kind: 'list', of: of as Shape<never>, description, get, ...options }),
};

/** The GraphQL name of a wire field. */
export function graphqlFieldName(wire: string, f: Field<never>): string {
  return f.graphql ?? wire.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}
