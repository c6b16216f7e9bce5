import { type ExecutionResult, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { endOnAbort } from '../abortable.js';
import type { Metrics } from './metrics.js';

/** Distinct operation names kept as labels; later ones count as `other` (names are chosen by clients). */
const MAX_NAMES = 200;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function isAsyncIterable<T>(v: unknown): v is AsyncIterableIterator<T> {
  return typeof v === 'object' && v !== null && Symbol.asyncIterator in v;
}

/**
 * Counts GraphQL operations by type, name and errors, keeps the open
 * subscription gauge, and ends every subscription when `draining` aborts
 * (shutdown). Works for HTTP, SSE and graphql-ws alike: all run through yoga's plugins.
 */
export function graphqlMetricsPlugin(metrics: Metrics, draining: AbortSignal): Plugin {
  const names = new Set<string>();
  const labelName = (name: string | undefined | null): string => {
    if (!name) return 'anonymous';
    if (!NAME.test(name)) return 'other';
    if (names.has(name)) return name;
    if (names.size >= MAX_NAMES) return 'other';
    names.add(name);
    return name;
  };
  const operation = (args: { document: Parameters<typeof getOperationAST>[0]; operationName?: string | null }) => {
    const op = getOperationAST(args.document, args.operationName ?? undefined);
    return { type: op?.operation ?? 'unknown', name: labelName(args.operationName ?? op?.name?.value) };
  };
  return {
    onExecute({ args }) {
      const labels = operation(args);
      return {
        onExecuteDone({ result }) {
          const errors = !isAsyncIterable(result) && Boolean((result as ExecutionResult).errors?.length);
          metrics.graphqlOperations.inc({ ...labels, errors: String(errors) });
        },
      };
    },
    onSubscribe({ args }) {
      const labels = operation(args);
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable<ExecutionResult>(result)) {
            metrics.graphqlOperations.inc({ ...labels, errors: String(Boolean((result as ExecutionResult).errors?.length)) });
            return;
          }
          metrics.graphqlOperations.inc({ ...labels, errors: 'false' });
          metrics.subscriptionsOpen.inc();
          // Shutdown ends it, so SSE clients get yoga's `event: complete` and graphql-ws clients a `complete`.
          setResult(endOnAbort(result, draining, () => metrics.subscriptionsOpen.dec()));
        },
      };
    },
  };
}
