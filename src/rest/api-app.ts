import { OpenAPIHono } from '@hono/zod-openapi';
import { invalid } from '../core/errors.js';
import type { RestEnv } from './env.js';
import { validationMessage } from './validation-message.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerAiSearchRoutes } from './routes/ai-search.js';
import { registerBillingRoutes } from './routes/billing.js';
import { registerChartRoutes } from './routes/charts.js';
import { registerEpisodeRoutes } from './routes/episodes.js';
import { registerJobRoutes } from './routes/jobs.js';
import { registerRegistrationRoutes } from './routes/registration.js';
import { registerRequestRoutes } from './routes/requests.js';
import { registerSearchRoutes } from './routes/search.js';
import { registerShowRoutes } from './routes/shows.js';
import { registerTranscriptRoutes } from './routes/transcripts.js';
import { registerTrendingRoutes } from './routes/trending.js';
import { registerWebhookRoutes } from './routes/webhooks.js';

/** Every route module of `/api/v1`, in documentation order. */
const routeModules: ((api: OpenAPIHono<RestEnv>) => void)[] = [registerRegistrationRoutes, registerAccountRoutes, registerBillingRoutes, registerSearchRoutes, registerShowRoutes, registerEpisodeRoutes, registerChartRoutes, registerTrendingRoutes, registerTranscriptRoutes, registerRequestRoutes, registerJobRoutes, registerWebhookRoutes, registerAiSearchRoutes];

/**
 * The spec's REST API, mounted at `/api/v1`. Validation failures become 400s
 * naming the field (`"field: message"`).
 */
export function createRestApi(): OpenAPIHono<RestEnv> {
  const api = new OpenAPIHono<RestEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const issue = result.error.issues[0];
        // A field the body does not have (`dryRun`, a typo of `dry_run`) is named itself: ignored, it could turn a quote into a charge.
        const path = issue?.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : (issue?.path ?? []);
        const field = path.length ? path.join('.') : result.target === 'json' ? 'body' : result.target;
        // `?max=2&max=3` reaches the schema as a list, which an enum refuses as a value not in it.
        const repeated = result.target === 'query' && (c.req.queries(String(field))?.length ?? 0) > 1;
        throw invalid(String(field), repeated ? 'given more than once; send it once' : issue ? validationMessage(issue) : 'invalid');
      }
    },
  });
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' });
  api.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  for (const register of routeModules) register(api);
  return api;
}
