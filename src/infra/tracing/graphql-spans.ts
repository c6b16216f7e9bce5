import { type ExecutionResult, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Tracing } from './tracing.js';

/**
 * A span around every GraphQL execution (HTTP, SSE, graphql-ws alike), named
 * `query Name` as OpenTelemetry's GraphQL conventions have it, so that the
 * resolvers' database queries and outbound requests are its children.
 * Subscriptions get a span for setting up their stream, not for its life.
 */
export function graphqlSpans(tracing: Tracing): Plugin {
  const describe = (args: { document: Parameters<typeof getOperationAST>[0]; operationName?: string | null }) => {
    const op = getOperationAST(args.document, args.operationName ?? undefined);
    const type = op?.operation ?? 'unknown';
    const name = args.operationName ?? op?.name?.value;
    return { spanName: name ? `${type} ${name}` : type, attributes: { 'graphql.operation.type': type, 'graphql.operation.name': name } };
  };
  const traced = <A extends { document: Parameters<typeof getOperationAST>[0]; operationName?: string | null }>(run: (args: A) => unknown) => (args: A) => {
    const { spanName, attributes } = describe(args);
    return tracing.inSpan(spanName, { attributes }, async (span) => {
      const result = await run(args);
      const errors = (result as ExecutionResult | undefined)?.errors;
      if (errors?.length) {
        span.setAttributes({ 'podtext.graphql.errors': errors.length });
        span.fail(errors[0]!.message);
      }
      return result;
    });
  };
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(traced(executeFn) as typeof executeFn);
    },
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      setSubscribeFn(traced(subscribeFn) as typeof subscribeFn);
    },
  };
}
