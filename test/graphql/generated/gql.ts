/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n": typeof types.UsageDocument,
    "\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n": typeof types.RegisterStartDocument,
    "\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n": typeof types.RegisterConfirmDocument,
    "\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n": typeof types.RotateKeyDocument,
    "\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n": typeof types.BillingPortalDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n": types.MeDocument,
    "\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n": types.UsageDocument,
    "\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n": types.RegisterStartDocument,
    "\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n": types.RegisterConfirmDocument,
    "\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n": types.RotateKeyDocument,
    "\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n": types.BillingPortalDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n"): (typeof documents)["\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n"): (typeof documents)["\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n"): (typeof documents)["\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;