import type { Field, Shape } from '../wire/shape.js';
import { graphqlFieldName } from '../wire/shape.js';
import { builder } from './builder.js';

const GRAPHQL_SCALAR = { string: 'String', int: 'Int', float: 'Float', boolean: 'Boolean', datetime: 'DateTime' } as const;

const refs = new Map<Shape<never>, unknown>();

/**
 * The GraphQL object type of a wire shape: the same fields in camelCase, with
 * the same descriptions, resolved by the same getters.
 */
export function shapeType<V>(s: Shape<V>) {
  const known = refs.get(s as Shape<never>);
  if (known) return known as ReturnType<typeof builder.objectRef<V>>;
  const ref = builder.objectRef<V>(s.graphqlName);
  refs.set(s as Shape<never>, ref);
  ref.implement({
    description: s.description,
    fields: (t) =>
      Object.fromEntries(
        (Object.entries(s.fields) as [string, Field<never>][]).map(([wire, f]) => {
          const type = f.kind === 'list' ? [shapeType(f.of)] : GRAPHQL_SCALAR[f.kind];
          const resolve = (v: V, _a: unknown, ctx: { services: { links: never } }) => f.get(v as never, { links: ctx.services.links });
          return [graphqlFieldName(wire, f), t.field({ type: type as never, nullable: f.nullable ?? false, description: f.description, resolve: resolve as never })];
        }),
      ),
  });
  return ref;
}
