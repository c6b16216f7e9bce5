import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from './graphql/schema.js';
import { createRestApi } from './rest/api-app.js';
import { DOCUMENT_SITE_URL, llmsText, openApiDocument } from './rest/openapi-document.js';

/** The committed descriptions of both APIs, generated from the code. */
export function renderSchemaFiles(): Record<'openapi.json' | 'llms.txt' | 'schema.graphql', string> {
  const doc = openApiDocument(createRestApi(), DOCUMENT_SITE_URL);
  return {
    'openapi.json': `${JSON.stringify(doc, null, 2)}\n`,
    'llms.txt': llmsText(doc, DOCUMENT_SITE_URL),
    'schema.graphql': `${printSchema(lexicographicSortSchema(buildSchema()))}\n`,
  };
}
