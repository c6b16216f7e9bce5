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

export const WebhookSecretQuery = graphql(`
  query WebhookSecret {
    webhookSecret {
      secret
      header
      scheme
    }
  }
`);

export const RotateWebhookSecretMutation = graphql(`
  mutation RotateWebhookSecret {
    rotateWebhookSecret {
      secret
      rotated
    }
  }
`);

export const CreateWebhookInboxMutation = graphql(`
  mutation CreateWebhookInbox {
    createWebhookInbox {
      id
      url
      deliveriesUrl
      expiresAt
    }
  }
`);

export const WebhookInboxQuery = graphql(`
  query WebhookInbox($id: ID!) {
    webhookInbox(id: $id) {
      expiresAt
      deliveries {
        receivedAt
        headers {
          name
          value
        }
        body
      }
    }
  }
`);

export const AiSearchMutation = graphql(`
  mutation AiSearch($transcriptId: String!, $topic: String!) {
    aiSearch(transcriptId: $transcriptId, topic: $topic) {
      transcriptId
      topic
      found
      summary
      mentions {
        quote
        context
        timestampSeconds
        listenUrl
      }
      credits
      creditsRemaining
    }
  }
`);

export const JobFieldsFragment = graphql(`
  fragment JobFields on Job {
    id
    status
    fast
    promiseSeconds
    estimatedReadyAt
    estimatedSeconds
    queueAheadEpisodes
    pollAfterSeconds
    pollUrl
    webhookUrl
    done
    total
    createdAt
    finishedAt
    creditsRefunded
    episodes {
      transcriptId
      title
      status
      url
      transcriptUrl
      charged
      error
    }
  }
`);

export const RequestTranscriptionMutation = graphql(`
  mutation RequestTranscription($input: TranscriptionRequestInput!) {
    requestTranscription(input: $input) {
      requestId
      job {
        ...JobFields
      }
      alreadyTranscribed {
        transcriptId
        title
        charged
        url
        transcriptUrl
      }
      queued
      creditsCharged
      creditsRemaining
      delivery
      notify
      dryRun
      creditsRequired
      sufficient
      fast
      promiseSeconds
      estimatedSeconds
      estimatedReadyAt
      queueAheadEpisodes
      episodes {
        transcriptId
        title
        status
        charged
      }
    }
  }
`);

export const JobsQuery = graphql(`
  query Jobs($first: Int, $after: String) {
    jobs(first: $first, after: $after) {
      totalCount
      hasNextPage
      endCursor
      edges {
        cursor
        node {
          ...JobFields
        }
      }
    }
  }
`);

export const JobQuery = graphql(`
  query Job($id: String!) {
    job(id: $id) {
      ...JobFields
    }
  }
`);

export const JobUpdatedSubscription = graphql(`
  subscription JobUpdated($id: String!) {
    jobUpdated(id: $id) {
      id
      status
      done
      total
      episodes {
        transcriptId
        status
        transcriptUrl
      }
    }
  }
`);

export const MyJobsUpdatedSubscription = graphql(`
  subscription MyJobsUpdated {
    myJobsUpdated {
      id
      status
      done
    }
  }
`);
