import { DomainError } from '../errors.js';

/** The payment provider, behind a port: switch plan, cancel, update card. */
export interface BillingProvider {
  /** A short-lived portal URL for the provider's customer. */
  portalUrl(customerId: string, returnUrl: string): Promise<string>;
}

/** Used until a payment provider is configured: no account can have subscribed through it. */
export const noBillingProvider: BillingProvider = {
  async portalUrl() {
    throw new DomainError('upstream_failed', 'Billing is not configured on this Podtext server.');
  },
};
