import type { Actor } from '../core/accounts/actor.js';
import { DomainError } from '../core/errors.js';
import type { GraphQLContext } from './context.js';

/** The caller of a keyed field; the admission plugin has already checked the key. */
export function requireActor(ctx: GraphQLContext): Actor {
  if (!ctx.actor) throw new DomainError('unauthorized', 'This field needs an API key: "Authorization: Bearer <key>" or "X-Api-Key: <key>".');
  return ctx.actor;
}
