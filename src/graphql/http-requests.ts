import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { NOT_UTF8, utf8OrNull } from '../core/decode-text.js';
import { errorStatus } from '../core/errors.js';

/** A refusal of what was sent, before anything runs: 400 `invalid_request` naming `field`. */
function refused(field: string, message: string): GraphQLError {
  return new GraphQLError(`${field}: ${message}`, { extensions: { code: 'invalid_request', field, http: { status: errorStatus.invalid_request } } });
}

/**
 * HEAD has nothing to run: a 405 naming the methods, answered here because
 * yoga's own 405 for it cannot be written by the Node adapter (a 500).
 */
function headPlugin(): Plugin {
  return {
    onRequest({ request, endResponse }) {
      if (request.method !== 'HEAD') return;
      endResponse(new Response(null, { status: 405, headers: { allow: 'GET, POST, OPTIONS' } }));
    },
  };
}

/**
 * `variables` or `extensions` that are not JSON, in a GET's query string or a
 * form-encoded POST: yoga's parser throws the JSON parser's SyntaxError, which
 * would be masked as a fault of ours. It is the client's, named.
 */
function paramsJsonPlugin(): Plugin {
  return {
    onRequestParse({ request, url, requestParser, setRequestParser }) {
      if (!requestParser) return;
      const form = request.method === 'POST' && /application\/x-www-form-urlencoded/i.test(request.headers.get('content-type') ?? '');
      if (request.method !== 'GET' && !form) return;
      setRequestParser(async (req) => {
        const copy = form ? req.clone() : null;
        try {
          return await requestParser(req);
        } catch (err) {
          if (!(err instanceof SyntaxError)) throw err;
          const params = copy ? new URLSearchParams(await copy.text()) : url.searchParams;
          const field = ['variables', 'extensions'].find((name) => !parsesAsJson(params.get(name))) ?? 'variables';
          throw refused(field, 'malformed JSON');
        }
      });
    },
  };
}

function parsesAsJson(text: string | null): boolean {
  if (!text) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A POST body is read as JSON whatever the case of its type (yoga has no
 * parser for `Application/JSON`), and malformed JSON is named as REST names
 * it, `body: malformed JSON`, under every spelling of the type (yoga's own
 * parser says only "POST body sent invalid JSON."). A body sent as anything
 * else yoga reads (a form, multipart, `application/graphql`) is left to yoga;
 * one it cannot read (no Content-Type, `text/plain`) would get an empty 415,
 * and is told, as REST tells it, to send JSON.
 */
function contentTypePlugin(): Plugin {
  const json = async (req: Request) => {
    const text = utf8OrNull(await req.arrayBuffer());
    if (text === null) throw refused('body', NOT_UTF8);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw refused('body', 'malformed JSON');
    }
    if (body === null || typeof body !== 'object') throw refused('body', 'must be a JSON object (or an array of them: a batch)');
    return body as never;
  };
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      if (request.method !== 'POST') return;
      if (/^application\/([\w.+-]+\+)?json\b/i.test(request.headers.get('content-type') ?? '')) setRequestParser(json);
      else if (!requestParser) {
        setRequestParser(() => {
          throw refused('body', 'send JSON, with "Content-Type: application/json"');
        });
      }
    },
  };
}

/**
 * A request without a document is no document that fails to parse, which
 * yoga answers 200 under legacy `application/json`: it is 400 under every
 * Accept, as REST answers a required field left out. Podtext keeps no
 * persisted documents, so a hash alone (`extensions.persistedQuery`) is this too.
 * A batch answers 200 whatever is in it, each operation with its own error.
 */
function documentRequiredPlugin(): Plugin {
  return {
    onRequestParse: () => ({
      onRequestParseDone({ requestParserResult }) {
        if (Array.isArray(requestParserResult) || requestParserResult.query != null) return;
        throw refused('query', 'required: the GraphQL document to run (persisted queries are not supported: send the document itself)');
      },
    }),
  };
}

/** How GraphQL over HTTP reads what it is sent, beyond yoga's own parsers. */
export function httpRequestPlugins(): Plugin[] {
  return [headPlugin(), paramsJsonPlugin(), contentTypePlugin(), documentRequiredPlugin()];
}
