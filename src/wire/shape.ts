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
  /** Appended to the description in GraphQL only: what its type there needs said. */
  graphqlNote?: string;
  get(view: V, ctx: WireContext): unknown;
}

export interface ScalarField<V> extends FieldBase<V> {
  kind: ScalarKind;
  /** For strings: the values allowed, documented as an enum. */
  values?: readonly [string, ...string[]];
  /** For strings: the pattern documented in openapi.json. */
  pattern?: string;
  /** For strings: the format documented in openapi.json (`uuid`). */
  format?: string;
  /** The GraphQL scalar, when it is not the REST one (ids past 2^31 are Float there; `id` is ID). */
  graphqlKind?: ScalarKind | 'id';
  example?: string | number;
}

/** A list of strings (`categories`). */
export interface StringsField<V> extends FieldBase<V> {
  kind: 'strings';
}

export interface ListField<V> extends FieldBase<V> {
  kind: 'list';
  of: Shape<never>;
}

/** One nested resource (`show` of an episode). */
export interface ObjectField<V> extends FieldBase<V> {
  kind: 'object';
  of: Shape<never>;
}

export type Field<V> = ScalarField<V> | StringsField<V> | ListField<V> | ObjectField<V>;

/**
 * A resource's fields, written once: REST's zod schema (snake_case, with
 * descriptions, for openapi.json), the wire mapper, and the GraphQL type
 * (camelCase, same descriptions; see graphql/shape-type.ts) all come from it.
 */
export interface Shape<V> {
  /** The OpenAPI component name; none for a shape written inline where it is used. */
  restName?: string;
  /** The GraphQL type name. */
  graphqlName: string;
  description?: string;
  fields: Record<string, Field<V>>;
  zod: z.ZodObject<Record<string, z.ZodTypeAny>>;
  toWire(view: V, ctx: WireContext): z.infer<Shape<V>['zod']>;
}

function zodOf(f: Field<never>): z.ZodTypeAny {
  let t: z.ZodTypeAny;
  switch (f.kind) {
    case 'string':
      t = f.values ? z.enum(f.values) : f.pattern || f.format ? z.string().openapi({ ...(f.pattern && { pattern: f.pattern }), ...(f.format && { format: f.format }) }) : z.string();
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
    case 'strings':
      t = z.array(z.string());
      break;
    case 'list':
      t = z.array(f.of.zod);
      break;
    case 'object':
      t = f.of.zod;
      break;
  }
  // `.nullable()` on a named component makes the component itself nullable (every
  // `$ref` to it, lists and responses included) and drops the null where it is used.
  if (f.nullable) t = f.kind === 'object' && f.of.restName ? z.union([t, z.null()]) : t.nullable();
  // A named component gets no description where it is used: the generator would wrap its $ref in allOf.
  if (f.kind === 'object' && f.of.restName) return t;
  const example = 'example' in f ? f.example : undefined;
  if (f.description === undefined && example === undefined) return t;
  return t.openapi({ ...(f.description !== undefined && { description: f.description }), ...(example !== undefined && { example }) });
}

function wireValue(f: Field<never>, value: unknown, ctx: WireContext): unknown {
  if (value === null || value === undefined) return null;
  if (f.kind === 'datetime') return (value as Date).toISOString();
  if (f.kind === 'list') return (value as never[]).map((v) => f.of.toWire(v, ctx));
  if (f.kind === 'object') return f.of.toWire(value as never, ctx);
  return value;
}

/** Declares a resource's shape once. */
export function shape<V>(names: { rest?: string; graphql?: string; description?: string }, fields: Record<string, Field<V>>): Shape<V> {
  const entries = Object.entries(fields) as [string, Field<never>][];
  const object = z.object(Object.fromEntries(entries.map(([k, f]) => [k, zodOf(f)])));
  const meta = names.description ? { description: names.description } : {};
  const zod = names.rest ? object.openapi(names.rest, meta) : object.openapi(meta);
  const graphqlName = names.graphql ?? names.rest;
  if (!graphqlName) throw new Error('A shape needs a REST or a GraphQL name.');
  return {
    restName: names.rest,
    graphqlName,
    description: names.description,
    fields,
    zod,
    toWire(view, ctx) {
      const out: Record<string, unknown> = {};
      for (const [k, f] of entries) out[k] = wireValue(f, f.get(view as never, ctx), ctx);
      return out;
    },
  };
}

/** The fields of `fields` named in `keys`, in that order: one resource seen in less detail (ShowSummary of Show). */
export function pick<V, K extends string>(fields: Record<K, Field<V>>, keys: readonly K[]): Record<K, Field<V>> {
  return Object.fromEntries(keys.map((k) => [k, fields[k]])) as Record<K, Field<V>>;
}

type Getter<V> = (view: V, ctx: WireContext) => unknown;
type Options = Pick<FieldBase<never>, 'nullable' | 'graphql' | 'graphqlNote'>;
type ScalarOptions = Options & Pick<ScalarField<never>, 'graphqlKind' | 'example'>;

/** Field builders: `field.int('Current balance.', (me) => me.credits)`. */
export const field = {
  string: <V>(description: string | undefined, get: Getter<V>, options: ScalarOptions & Pick<ScalarField<never>, 'values' | 'pattern' | 'format'> = {}): Field<V> => ({ kind: 'string', description, get, ...options }),
  int: <V>(description: string | undefined, get: Getter<V>, options: ScalarOptions = {}): Field<V> => ({ kind: 'int', description, get, ...options }),
  float: <V>(description: string | undefined, get: Getter<V>, options: ScalarOptions = {}): Field<V> => ({ kind: 'float', description, get, ...options }),
  boolean: <V>(description: string | undefined, get: Getter<V>, options: ScalarOptions = {}): Field<V> => ({ kind: 'boolean', description, get, ...options }),
  datetime: <V>(description: string | undefined, get: Getter<V>, options: ScalarOptions = {}): Field<V> => ({ kind: 'datetime', description, get, ...options }),
  strings: <V>(description: string | undefined, get: (view: V, ctx: WireContext) => readonly string[], options: Options = {}): Field<V> => ({ kind: 'strings', description, get, ...options }),
  list: <V, W>(of: Shape<W>, description: string | undefined, get: (view: V, ctx: WireContext) => readonly W[], options: Options = {}): Field<V> => ({ kind: 'list', of: of as Shape<never>, description, get, ...options }),
  object: <V, W>(of: Shape<W>, description: string | undefined, get: (view: V, ctx: WireContext) => W | null, options: Options = {}): Field<V> => ({ kind: 'object', of: of as Shape<never>, description, get, ...options }),
};

/** The GraphQL name of a wire field. */
export function graphqlFieldName(wire: string, f: Field<never>): string {
  return f.graphql ?? wire.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}
