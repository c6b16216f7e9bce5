import { GraphQLError, Kind, type ValidationContext, type ValidationRule, type ValueNode } from 'graphql';

/** Where in `value` a string holds a NUL character (`episodes.0.guid`), if anywhere. */
function nulAt(value: ValueNode, path: string): string | null {
  if (value.kind === Kind.STRING) return value.value.includes('\u0000') ? path : null;
  if (value.kind === Kind.LIST) {
    for (const [i, item] of value.values.entries()) {
      const found = nulAt(item, `${path}.${i}`);
      if (found) return found;
    }
  }
  if (value.kind === Kind.OBJECT) {
    for (const field of value.fields) {
      const found = nulAt(field.value, `${path}.${field.name.value}`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * NUL characters written into the document (`"\u0000"` in an argument or a
 * variable's default), refused as in variables and REST bodies: PostgreSQL
 * text cannot hold them, so they would otherwise fail deep in a resolver as
 * an internal error. Named as GraphQL spells the argument (`topic`, `input.episodes.0.guid`).
 *
 * @example `{ search(q: "a\u0000b") { shows { title } } }` // q: contains a NUL character
 */
export const noNulLiterals: ValidationRule = (context: ValidationContext) => ({
  Argument(node) {
    const at = nulAt(node.value, node.name.value);
    if (at) context.reportError(new GraphQLError(`${at}: contains a NUL character`, { nodes: [node], extensions: { field: at } }));
  },
  VariableDefinition(node) {
    const at = node.defaultValue && nulAt(node.defaultValue, `$${node.variable.name.value}`);
    if (at) context.reportError(new GraphQLError(`${at}: contains a NUL character`, { nodes: [node], extensions: { field: at } }));
  },
});
