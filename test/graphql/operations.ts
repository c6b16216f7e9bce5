import { graphql } from './generated/gql.js';

/** Every GraphQL document the tests send, typed by codegen.ts. */
export const MeQuery = graphql(`
  query Me {
    me {
      credits
      plan
      email
      billingManaged
      unlocks {
        transcriptId
        unlockedAt
        url
      }
    }
  }
`);

export const UsageQuery = graphql(`
  query Usage {
    usage {
      plan
      creditsAllowance
      creditsRemaining
      requestsToday
      requestLimit
      requestsRemaining
      ledger {
        kind
        amount
        balanceAfter
        reference
      }
    }
  }
`);

export const RegisterStartMutation = graphql(`
  mutation RegisterStart($email: String!) {
    registerStart(email: $email) {
      ok
      message
    }
  }
`);

export const RegisterConfirmMutation = graphql(`
  mutation RegisterConfirm($token: String!) {
    registerConfirm(token: $token) {
      key
      credits
      created
    }
  }
`);

export const RotateKeyMutation = graphql(`
  mutation RotateKey {
    rotateKey {
      key
    }
  }
`);

export const BillingPortalMutation = graphql(`
  mutation BillingPortal {
    billingPortal {
      url
    }
  }
`);
