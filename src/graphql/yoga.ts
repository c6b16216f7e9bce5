import { GraphQLError } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { KEYLESS_METER } from '../core/accounts/gate.js';
import { DomainError } from '../core/errors.js';
import type { Services } from '../core/services.js';
import { admissionPlugin, toGraphQLError } from './admission.js';
import type { GraphQLContext } from './context.js';
import { queryLimits } from './limits.js';
import { buildSchema } from './schema.js';

/** Passed per HTTP request so the response can read the operation's meter. */
export interface ContextSlot {
  metered: GraphQLContext['metered'];
}

export type PodtextYoga = YogaServerInstance<Record<string, unknown>, GraphQLContext>;

/**
 * GraphQL over the same core services as REST. Domain errors keep their code
 * in `extensions.code`; anything else is logged once and masked.
 */
export function createGraphQL(services: Services, options: { production: boolean; plugins?: Plugin[] }): PodtextYoga {
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    batching: { limit: 10 },
    landingPage: !options.production,
    graphiql: !options.production,
    logging: false,
    maskedErrors: {
      maskError(error) {
        const original = (error as GraphQLError).originalError ?? error;
        if (original instanceof DomainError) return toGraphQLError(original);
        if (original instanceof GraphQLError && original.extensions?.code) return original;
        if (error instanceof GraphQLError && !(error as GraphQLError).originalError) return error;
        services.log.error({ err: original }, 'graphql resolver failed');
        return toGraphQLError(original);
      },
    },
    context: (initial) => {
      const { request, wsHeaders, slot } = initial as { request?: Request; wsHeaders?: GraphQLContext['headers']; slot?: ContextSlot };
      const ctx: GraphQLContext = {
        services,
        // graphql-ws connections carry the key in connectionParams instead of headers.
        headers: wsHeaders ?? { authorization: request?.headers.get('authorization'), xApiKey: request?.headers.get('x-api-key') },
        actor: null,
        metered: slot?.metered ?? { meter: null },
      };
      return ctx;
    },
    plugins: [
      ...queryLimits(options.production),
      // Operations' metrics and the shutdown that ends subscriptions (src/infra/metrics),
      // ahead of admission so that refused operations are counted too.
      ...((options.plugins ?? []) as Plugin<GraphQLContext>[]),
      admissionPlugin(),
      {
        onResponse({ response, serverContext }) {
          const meter = (serverContext as { slot?: ContextSlot } | undefined)?.slot?.metered.meter ?? KEYLESS_METER;
          response.headers.set('X-RateLimit-Limit', String(meter.limit));
          response.headers.set('X-RateLimit-Remaining', String(Math.max(0, meter.remaining)));
        },
      },
    ],
  });
}
