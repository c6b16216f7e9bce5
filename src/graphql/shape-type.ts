import type { Field, Shape } from '../wire/shape.js';
import { graphqlFieldName } from '../wire/shape.js';
import { builder } from './builder.js';
import type { GraphQLContext } from './context.js';

const GRAPHQL_SCALAR = { string: 'String', int: 'Int', float: 'Float', boolean: 'Boolean', datetime: 'DateTime', id: 'ID' } as const;

const refs = new Map<Shape<never>, unknown>();

function graphqlType(f: Field<never>): unknown {
  switch (f.kind) {
    case 'strings':
      return ['String'];
    case 'list':
      return [shapeType(f.of)];
    case 'object':
      return shapeType(f.of);
    default:
      return GRAPHQL_SCALAR[f.graphqlKind ?? f.kind];
  }
}

/** What a Pothos `fields` callback receives; only its `field` is used. */
interface FieldBuilder {
  field(options: never): unknown;
}

/**
 * A shape's fields for a Pothos type: camelCase names, the same descriptions,
 * resolved by the same getters. Spread it into a type that adds fields of its
 * own (relations, GraphQL-only fields), or use `shapeType` for the whole type.
 */
export function shapeFields<V>(t: FieldBuilder, s: Shape<V>): Record<string, never> {
  return Object.fromEntries(
    (Object.entries(s.fields) as [string, Field<never>][]).map(([wire, f]) => {
      const resolve = (v: V, _a: unknown, ctx: GraphQLContext) => f.get(v as never, { links: ctx.services.links });
      const description = [f.description, f.graphqlNote].filter(Boolean).join(' ') || undefined;
      return [graphqlFieldName(wire, f), t.field({ type: graphqlType(f), nullable: f.nullable ?? false, description, resolve } as never) as never];
    }),
  );
}

/** The GraphQL object type of a wire shape. */
export function shapeType<V>(s: Shape<V>) {
  const known = refs.get(s as Shape<never>);
  if (known) return known as ReturnType<typeof builder.objectRef<V>>;
  const ref = builder.objectRef<V>(s.graphqlName);
  refs.set(s as Shape<never>, ref);
  ref.implement({ description: s.description, fields: (t) => shapeFields(t as never, s) });
  return ref;
}
