import {
  GraphQLError,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Objects one operation may resolve (every list multiplies what is below it). Default: 20,000. */
export const MAX_OBJECTS = 20_000;
/** Items assumed for a paginated list whose `first` is left out: the schema's default page. */
const DEFAULT_PAGE = 100;
/** Items assumed for a `first` (or `max`) given as a variable: the largest the field allows. */
const LARGEST_PAGE: Record<string, number> = { 'Query.jobs': 50, 'Query.trending': 100 };
const LARGEST_PAGE_ELSE = 1000;
/** Items assumed for a list without `first` (search results, categories…). */
const PLAIN_LIST = 25;
/**
 * A transcript's content is no list of 25: a four-hour episode has some 2,000
 * segments and 40,000 words. It is counted as about {@link TRANSCRIPT_CONTENT}
 * objects however it is asked for (its segments with their words, or
 * rendered), so one operation may carry the content of four transcripts.
 */
const SEGMENTS = 400;
const WORDS_PER_SEGMENT = 11;
const TRANSCRIPT_CONTENT = SEGMENTS * (1 + WORDS_PER_SEGMENT);
const CONTENT_FIELDS: Record<string, number> = {
  'Transcript.segments': SEGMENTS,
  'Segment.words': WORDS_PER_SEGMENT,
  'Transcript.rendered': TRANSCRIPT_CONTENT,
};

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

/** Arguments that set how many items a field answers. */
const PAGE_ARGS = ['first', 'max'];

/** How many items one `field` of `parent` selects when its type is a list, or a page object (a connection's `edges`/`nodes`, trending's `shows`). */
function pageSize(field: FieldNode, parent: string): number {
  const first = field.arguments?.find((a) => PAGE_ARGS.includes(a.name.value));
  if (!first) return DEFAULT_PAGE;
  if (first.value.kind === Kind.INT) return Math.max(1, Number(first.value.value));
  return LARGEST_PAGE[`${parent}.${field.name.value}`] ?? LARGEST_PAGE_ELSE;
}

/**
 * Refuses an operation that would resolve more than {@link MAX_OBJECTS}
 * objects, counting each object field once per item of every list above it:
 * `show { episodes { show { episodes { show … } } } }` grows a hundredfold a
 * level, which the depth limit alone lets through. A page's size is its
 * `first` or `max` (a variable counts as the largest page the field allows), else the
 * default page.
 */
export const fanOutLimit: ValidationRule = (context: ValidationContext) => {
  const schema = context.getSchema();
  const visited = new Set<string>();

  function cost(set: SelectionSetNode, parent: GraphQLNamedType, times: number, pages: Map<string, number>): number {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        total += cost(selection.selectionSet, on ?? parent, times, pages);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = context.getFragment(selection.name.value);
        // A fragment spread inside itself is refused by the standard rules; count each once per path.
        if (!fragment || visited.has(fragment.name.value)) continue;
        visited.add(fragment.name.value);
        total += cost(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? parent, times, pages);
        visited.delete(fragment.name.value);
        continue;
      }
      if (!isObjectType(parent)) continue;
      const name = selection.name.value;
      const content = CONTENT_FIELDS[`${parent.name}.${name}`];
      // A scalar that carries a transcript's whole content costs what its objects would.
      if (!selection.selectionSet) {
        if (content) total += times * content;
        continue;
      }
      const def = parent.getFields()[name];
      if (!def) continue;
      const type = getNamedType(def.type);
      // The lists of a page object (a connection's `edges` and `nodes`, trending's `shows`) are its
      // page; the page size is set on the field that returns it (`first`, `max`).
      const paged = def.args.some((a) => PAGE_ARGS.includes(a.name));
      let items = times;
      if (pages.has(parent.name) && isList(def.type)) items = times * pages.get(parent.name)!;
      else if (content) items = times * content;
      else if (isList(def.type)) items = times * (paged ? pageSize(selection, parent.name) : PLAIN_LIST);
      const inner = new Map(pages);
      if (paged && !isList(def.type)) inner.set(type.name, pageSize(selection, parent.name));
      total += items + cost(selection.selectionSet, type, items, inner);
      if (total > MAX_OBJECTS * 10) return total;
    }
    return total;
  }

  return {
    OperationDefinition(op) {
      const root = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
      if (!root) return;
      const objects = cost(op.selectionSet, root, 1, new Map());
      if (objects > MAX_OBJECTS) {
        context.reportError(
          new GraphQLError(
            `query: it would resolve about ${Math.round(objects).toLocaleString('en-US')} objects; one operation may resolve ${MAX_OBJECTS.toLocaleString('en-US')}. Ask for smaller pages (first) or fewer nested lists.`,
            { nodes: [op], extensions: { code: 'invalid_request' } },
          ),
        );
      }
    },
  };
};
