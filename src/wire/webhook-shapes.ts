import type { InboxCreated } from '../core/webhooks/test-inbox.js';
import { field, shape } from './shape.js';

/** A test inbox just created: REST `POST /webhooks/inbox`, GraphQL `createWebhookInbox`. */
export const inboxShape = shape<InboxCreated>(
  { rest: 'WebhookInbox', description: 'A hosted test receiver, valid for 24 hours.' },
  {
    id: field.string(undefined, (i) => i.id, { format: 'uuid', graphqlKind: 'id' }),
    url: field.string('Send here: `{site_url}/hooks/inbox/{id}`. No key; any sender; a body up to 256 KB.', (i) => i.url),
    deliveries_url: field.string('`GET` this with your key to read what arrived (REST).', (i) => i.deliveriesUrl),
    expires_at: field.datetime('24 hours after creation.', (i) => i.expiresAt),
  },
);
