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
      fastLaneAvailable
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

export const SearchShowsQuery = graphql(`
  query SearchShows($q: String!) {
    search(q: $q) {
      query
      shows {
        feedId
        title
        author
        artwork
        appleId
        indexed
        url
        episodesUrl
        categories
        language
      }
    }
  }
`);

export const ShowLookupQuery = graphql(`
  query ShowLookup($appleId: Float, $feedUrl: String, $url: String) {
    showLookup(appleId: $appleId, feedUrl: $feedUrl, url: $url) {
      feedId
      title
      appleId
      url
      episodesUrl
    }
  }
`);

export const ShowQuery = graphql(`
  query Show($feedId: Float!) {
    show(feedId: $feedId) {
      feedId
      title
      author
      description
      artwork
      language
      categories
      episodeCountTracked
      newestEpisodeAt
      feedUrl
      website
      appleId
      indexed
      url
      episodesUrl
    }
  }
`);

export const ShowWithEpisodesQuery = graphql(`
  query ShowWithEpisodes($feedId: Float!, $first: Int) {
    show(feedId: $feedId) {
      title
      episodes(first: $first) {
        transcriptId
        title
        show {
          feedId
          title
        }
      }
    }
  }
`);

export const EpisodesQuery = graphql(`
  query Episodes($feedId: Float!, $first: Int, $after: String) {
    episodes(feedId: $feedId, first: $first, after: $after) {
      readyCount
      truncated
      hasNextPage
      endCursor
      show {
        feedId
        title
      }
      edges {
        cursor
        node {
          guid
          transcriptId
          title
          description
          episode
          season
          publishedAt
          durationSeconds
          audioUrl
          transcriptStatus
          transcriptUrl
          pageUrl
        }
      }
    }
  }
`);

export const EpisodesWithShowQuery = graphql(`
  query EpisodesWithShow($feedId: Float!, $first: Int) {
    episodes(feedId: $feedId, first: $first) {
      nodes {
        transcriptId
        title
        show {
          feedId
          title
          author
        }
      }
    }
  }
`);

export const EpisodeInfoQuery = graphql(`
  query EpisodeInfo($transcriptId: String!) {
    episode(transcriptId: $transcriptId) {
      transcriptId
      title
      transcriptStatus
      unlocked
      unlockCost
      wordCount
      durationSeconds
      publishedAt
      show {
        feedId
        title
        author
        artwork
        url
      }
    }
  }
`);

export const ChartsQuery = graphql(`
  query Charts($genre: String) {
    charts(genre: $genre) {
      genre {
        slug
        name
      }
      genres {
        slug
        name
      }
      chart {
        rank
        appleId
        title
        author
        artwork
        lookupUrl
      }
    }
  }
`);

export const TrendingQuery = graphql(`
  query Trending($category: String, $max: Int, $lang: String) {
    trending(category: $category, max: $max, lang: $lang) {
      categories
      shows {
        feedId
        title
        categories
        language
      }
    }
  }
`);
