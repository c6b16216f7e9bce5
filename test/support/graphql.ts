import { buildHTTPExecutor } from '@graphql-tools/executor-http';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { ExecutionResult } from 'graphql';
import type { TestPodtext } from './podtext.js';

/** Runs typed operations against the instance's yoga, as an HTTP client would. */
export function graphqlClient(t: TestPodtext) {
  return async function run<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V, key?: string): Promise<ExecutionResult<R>> {
    const executor = buildHTTPExecutor({
      endpoint: 'http://podtext.test/graphql',
      fetch: (url, init) => t.request(new URL(String(url)).pathname, init as RequestInit),
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    return (await executor({ document, variables })) as ExecutionResult<R>;
  };
}
