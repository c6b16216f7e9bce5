import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { GraphQLError, type ValidationContext, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { fanOutLimit } from './fan-out-limit.js';
import { noNulLiterals } from './nul-literals.js';

/** Deepest selection accepted. Default: 10. */
export const MAX_DEPTH = 10;
/** Aliases per operation. Default: 15. */
export const MAX_ALIASES = 15;
/** Tokens per document. Default: 2,000. */
export const MAX_TOKENS = 2000;

/**
 * Limits that keep one document from costing the server more than a page of
 * results (depth, aliases, tokens, and the objects its lists fan out to): the same on HTTP, SSE and graphql-ws, since graphql-ws runs
 * through yoga's envelop. Production also hides the schema.
 */
/** A limit's refusal, as a validation error of the document (the limit's wording, without its "Syntax Error" prefix). */
function reportAsInvalid(context: ValidationContext | null, error: GraphQLError): void {
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));
}

/**
 * The limits checked when a document is validated (depth, aliases per
 * operation, objects, no NUL character in its strings): yoga's validation adds them, and the door reads a
 * document with the same ones, so what it counts as refused is what is
 * refused (see createCallReader). Reported as validation errors, as an
 * unknown field is (200 under legacy application/json): thrown, they would
 * escape validation and answer 400.
 */
export const LIMIT_RULES: readonly ValidationRule[] = [
  maxDepthRule({ n: MAX_DEPTH, propagateOnRejection: false, onReject: [reportAsInvalid] }),
  maxAliasesRule({ n: MAX_ALIASES, propagateOnRejection: false, onReject: [reportAsInvalid] }),
  fanOutLimit,
  noNulLiterals,
];

export function queryLimits(production: boolean): Plugin[] {
  const plugins: Plugin[] = [
    { onValidate: ({ addValidationRule }) => LIMIT_RULES.forEach((rule) => addValidationRule(rule)) },
    maxTokensPlugin({ n: MAX_TOKENS }) as Plugin,
  ];
  if (production) plugins.push(useDisableIntrospection() as Plugin, blockFieldSuggestionsPlugin() as Plugin);
  return plugins;
}
