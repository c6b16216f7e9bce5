import type { PlanName } from '../pricing.js';

/** Who is calling: the account behind a valid key. */
export interface Actor {
  accountId: string;
  keyId: string;
  plan: PlanName;
}
