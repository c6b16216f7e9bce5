import type { OutgoingMail } from '../../infra/mail/mail-transport.js';
import type { QueuedMail } from '../mail/mail-outbox.js';
import type { Links } from '../links.js';

export function confirmMail(email: string, token: string, links: Links): OutgoingMail {
  const link = links.confirm(token);
  return {
    to: email,
    subject: 'Finish your Podtext registration',
    text: [
      'Welcome to Podtext.',
      '',
      `Open this link to create your account and get your API key:`,
      link,
      '',
      `Or confirm through the API: POST ${links.api}/register/confirm with {"token": "${token}"}`,
      '',
      'The link works once and expires in 24 hours. Creating an account accepts the terms and privacy policy.',
      'If you did not ask for this, ignore this mail.',
    ].join('\n'),
  };
}

/**
 * Stands for the account's key in a queued mail; the key in force is put in
 * when the mail is sent, so a mail delayed past a rotation carries the new
 * key, not the retired one, and no key waits in the queue.
 */
export const CURRENT_KEY = '{{podtext:current-api-key}}';

/** The mail to an address that already has an account: its key, filled in at sending (see `fillCurrentKey`). */
export function existingKeyMail(email: string, links: Links): QueuedMail {
  return {
    to: email,
    fillsKey: true,
    subject: 'Your Podtext API key',
    text: [
      'Someone (hopefully you) asked to register this address with Podtext.',
      'It already has an account, so here is its current API key:',
      '',
      CURRENT_KEY,
      '',
      `Use it as "Authorization: Bearer <key>" with ${links.api}.`,
      `If you did not ask for this, rotate the key: POST ${links.api}/key/rotate.`,
    ].join('\n'),
  };
}
