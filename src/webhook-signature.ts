/**
 * Signing and checking Podtext webhooks, for receivers: a package entry that
 * pulls in nothing but node:crypto.
 * @example import { verifySignature } from 'podtext/webhook-signature';
 */
export {
  signPayload,
  verifySignature,
  type SignatureFailure,
  type VerifyInput,
  type VerifyResult,
} from './core/webhooks/signature.js';
