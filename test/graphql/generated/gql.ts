/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n": typeof types.UsageDocument,
    "\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n": typeof types.RegisterStartDocument,
    "\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n": typeof types.RegisterConfirmDocument,
    "\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n": typeof types.RotateKeyDocument,
    "\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n": typeof types.BillingPortalDocument,
    "\n  query WebhookSecret {\n    webhookSecret {\n      secret\n      header\n      scheme\n    }\n  }\n": typeof types.WebhookSecretDocument,
    "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      secret\n      rotated\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  mutation CreateWebhookInbox {\n    createWebhookInbox {\n      id\n      url\n      deliveriesUrl\n      expiresAt\n    }\n  }\n": typeof types.CreateWebhookInboxDocument,
    "\n  query WebhookInbox($id: ID!) {\n    webhookInbox(id: $id) {\n      expiresAt\n      deliveries {\n        receivedAt\n        headers {\n          name\n          value\n        }\n        body\n      }\n    }\n  }\n": typeof types.WebhookInboxDocument,
    "\n  mutation AiSearch($transcriptId: String!, $topic: String!) {\n    aiSearch(transcriptId: $transcriptId, topic: $topic) {\n      transcriptId\n      topic\n      found\n      summary\n      mentions {\n        quote\n        context\n        timestampSeconds\n        listenUrl\n      }\n      credits\n      creditsRemaining\n    }\n  }\n": typeof types.AiSearchDocument,
    "\n  fragment JobFields on Job {\n    id\n    status\n    fast\n    promiseSeconds\n    estimatedReadyAt\n    estimatedSeconds\n    queueAheadEpisodes\n    pollAfterSeconds\n    pollUrl\n    webhookUrl\n    done\n    total\n    createdAt\n    finishedAt\n    creditsRefunded\n    episodes {\n      transcriptId\n      title\n      status\n      url\n      transcriptUrl\n      charged\n      error\n    }\n  }\n": typeof types.JobFieldsFragmentDoc,
    "\n  mutation RequestTranscription($input: TranscriptionRequestInput!) {\n    requestTranscription(input: $input) {\n      requestId\n      job {\n        ...JobFields\n      }\n      alreadyTranscribed {\n        transcriptId\n        title\n        charged\n        url\n        transcriptUrl\n      }\n      queued\n      creditsCharged\n      creditsRemaining\n      delivery\n      notify\n      dryRun\n      creditsRequired\n      sufficient\n      fast\n      fastLaneAvailable\n      promiseSeconds\n      estimatedSeconds\n      estimatedReadyAt\n      queueAheadEpisodes\n      episodes {\n        transcriptId\n        title\n        status\n        charged\n      }\n    }\n  }\n": typeof types.RequestTranscriptionDocument,
    "\n  query Jobs($first: Int, $after: String) {\n    jobs(first: $first, after: $after) {\n      totalCount\n      hasNextPage\n      endCursor\n      edges {\n        cursor\n        node {\n          ...JobFields\n        }\n      }\n    }\n  }\n": typeof types.JobsDocument,
    "\n  query Job($id: String!) {\n    job(id: $id) {\n      ...JobFields\n    }\n  }\n": typeof types.JobDocument,
    "\n  subscription JobUpdated($id: String!) {\n    jobUpdated(id: $id) {\n      id\n      status\n      done\n      total\n      episodes {\n        transcriptId\n        status\n        transcriptUrl\n      }\n    }\n  }\n": typeof types.JobUpdatedDocument,
    "\n  subscription MyJobsUpdated {\n    myJobsUpdated {\n      id\n      status\n      done\n    }\n  }\n": typeof types.MyJobsUpdatedDocument,
    "\n  query SearchShows($q: String!) {\n    search(q: $q) {\n      query\n      shows {\n        feedId\n        title\n        author\n        artwork\n        appleId\n        indexed\n        url\n        episodesUrl\n        categories\n        language\n      }\n    }\n  }\n": typeof types.SearchShowsDocument,
    "\n  query ShowLookup($appleId: Float, $feedUrl: String, $url: String) {\n    showLookup(appleId: $appleId, feedUrl: $feedUrl, url: $url) {\n      feedId\n      title\n      appleId\n      url\n      episodesUrl\n    }\n  }\n": typeof types.ShowLookupDocument,
    "\n  query Show($feedId: Float!) {\n    show(feedId: $feedId) {\n      feedId\n      title\n      author\n      description\n      artwork\n      language\n      categories\n      episodeCountTracked\n      newestEpisodeAt\n      feedUrl\n      website\n      appleId\n      indexed\n      url\n      episodesUrl\n    }\n  }\n": typeof types.ShowDocument,
    "\n  query ShowWithEpisodes($feedId: Float!, $first: Int) {\n    show(feedId: $feedId) {\n      title\n      episodes(first: $first) {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n        }\n      }\n    }\n  }\n": typeof types.ShowWithEpisodesDocument,
    "\n  query Episodes($feedId: Float!, $first: Int, $after: String) {\n    episodes(feedId: $feedId, first: $first, after: $after) {\n      readyCount\n      truncated\n      hasNextPage\n      endCursor\n      show {\n        feedId\n        title\n      }\n      edges {\n        cursor\n        node {\n          guid\n          transcriptId\n          title\n          description\n          episode\n          season\n          publishedAt\n          durationSeconds\n          audioUrl\n          transcriptStatus\n          transcriptUrl\n          pageUrl\n        }\n      }\n    }\n  }\n": typeof types.EpisodesDocument,
    "\n  query EpisodesWithShow($feedId: Float!, $first: Int) {\n    episodes(feedId: $feedId, first: $first) {\n      nodes {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n          author\n        }\n      }\n    }\n  }\n": typeof types.EpisodesWithShowDocument,
    "\n  query EpisodeInfo($transcriptId: String!) {\n    episode(transcriptId: $transcriptId) {\n      transcriptId\n      title\n      transcriptStatus\n      unlocked\n      unlockCost\n      wordCount\n      durationSeconds\n      publishedAt\n      show {\n        feedId\n        title\n        author\n        artwork\n        url\n      }\n    }\n  }\n": typeof types.EpisodeInfoDocument,
    "\n  query Charts($genre: String) {\n    charts(genre: $genre) {\n      genre {\n        slug\n        name\n      }\n      genres {\n        slug\n        name\n      }\n      chart {\n        rank\n        appleId\n        title\n        author\n        artwork\n        lookupUrl\n      }\n    }\n  }\n": typeof types.ChartsDocument,
    "\n  query Trending($category: String, $max: Int, $lang: String) {\n    trending(category: $category, max: $max, lang: $lang) {\n      categories\n      shows {\n        feedId\n        title\n        categories\n        language\n      }\n    }\n  }\n": typeof types.TrendingDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n": types.MeDocument,
    "\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n": types.UsageDocument,
    "\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n": types.RegisterStartDocument,
    "\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n": types.RegisterConfirmDocument,
    "\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n": types.RotateKeyDocument,
    "\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n": types.BillingPortalDocument,
    "\n  query WebhookSecret {\n    webhookSecret {\n      secret\n      header\n      scheme\n    }\n  }\n": types.WebhookSecretDocument,
    "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      secret\n      rotated\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  mutation CreateWebhookInbox {\n    createWebhookInbox {\n      id\n      url\n      deliveriesUrl\n      expiresAt\n    }\n  }\n": types.CreateWebhookInboxDocument,
    "\n  query WebhookInbox($id: ID!) {\n    webhookInbox(id: $id) {\n      expiresAt\n      deliveries {\n        receivedAt\n        headers {\n          name\n          value\n        }\n        body\n      }\n    }\n  }\n": types.WebhookInboxDocument,
    "\n  mutation AiSearch($transcriptId: String!, $topic: String!) {\n    aiSearch(transcriptId: $transcriptId, topic: $topic) {\n      transcriptId\n      topic\n      found\n      summary\n      mentions {\n        quote\n        context\n        timestampSeconds\n        listenUrl\n      }\n      credits\n      creditsRemaining\n    }\n  }\n": types.AiSearchDocument,
    "\n  fragment JobFields on Job {\n    id\n    status\n    fast\n    promiseSeconds\n    estimatedReadyAt\n    estimatedSeconds\n    queueAheadEpisodes\n    pollAfterSeconds\n    pollUrl\n    webhookUrl\n    done\n    total\n    createdAt\n    finishedAt\n    creditsRefunded\n    episodes {\n      transcriptId\n      title\n      status\n      url\n      transcriptUrl\n      charged\n      error\n    }\n  }\n": types.JobFieldsFragmentDoc,
    "\n  mutation RequestTranscription($input: TranscriptionRequestInput!) {\n    requestTranscription(input: $input) {\n      requestId\n      job {\n        ...JobFields\n      }\n      alreadyTranscribed {\n        transcriptId\n        title\n        charged\n        url\n        transcriptUrl\n      }\n      queued\n      creditsCharged\n      creditsRemaining\n      delivery\n      notify\n      dryRun\n      creditsRequired\n      sufficient\n      fast\n      fastLaneAvailable\n      promiseSeconds\n      estimatedSeconds\n      estimatedReadyAt\n      queueAheadEpisodes\n      episodes {\n        transcriptId\n        title\n        status\n        charged\n      }\n    }\n  }\n": types.RequestTranscriptionDocument,
    "\n  query Jobs($first: Int, $after: String) {\n    jobs(first: $first, after: $after) {\n      totalCount\n      hasNextPage\n      endCursor\n      edges {\n        cursor\n        node {\n          ...JobFields\n        }\n      }\n    }\n  }\n": types.JobsDocument,
    "\n  query Job($id: String!) {\n    job(id: $id) {\n      ...JobFields\n    }\n  }\n": types.JobDocument,
    "\n  subscription JobUpdated($id: String!) {\n    jobUpdated(id: $id) {\n      id\n      status\n      done\n      total\n      episodes {\n        transcriptId\n        status\n        transcriptUrl\n      }\n    }\n  }\n": types.JobUpdatedDocument,
    "\n  subscription MyJobsUpdated {\n    myJobsUpdated {\n      id\n      status\n      done\n    }\n  }\n": types.MyJobsUpdatedDocument,
    "\n  query SearchShows($q: String!) {\n    search(q: $q) {\n      query\n      shows {\n        feedId\n        title\n        author\n        artwork\n        appleId\n        indexed\n        url\n        episodesUrl\n        categories\n        language\n      }\n    }\n  }\n": types.SearchShowsDocument,
    "\n  query ShowLookup($appleId: Float, $feedUrl: String, $url: String) {\n    showLookup(appleId: $appleId, feedUrl: $feedUrl, url: $url) {\n      feedId\n      title\n      appleId\n      url\n      episodesUrl\n    }\n  }\n": types.ShowLookupDocument,
    "\n  query Show($feedId: Float!) {\n    show(feedId: $feedId) {\n      feedId\n      title\n      author\n      description\n      artwork\n      language\n      categories\n      episodeCountTracked\n      newestEpisodeAt\n      feedUrl\n      website\n      appleId\n      indexed\n      url\n      episodesUrl\n    }\n  }\n": types.ShowDocument,
    "\n  query ShowWithEpisodes($feedId: Float!, $first: Int) {\n    show(feedId: $feedId) {\n      title\n      episodes(first: $first) {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n        }\n      }\n    }\n  }\n": types.ShowWithEpisodesDocument,
    "\n  query Episodes($feedId: Float!, $first: Int, $after: String) {\n    episodes(feedId: $feedId, first: $first, after: $after) {\n      readyCount\n      truncated\n      hasNextPage\n      endCursor\n      show {\n        feedId\n        title\n      }\n      edges {\n        cursor\n        node {\n          guid\n          transcriptId\n          title\n          description\n          episode\n          season\n          publishedAt\n          durationSeconds\n          audioUrl\n          transcriptStatus\n          transcriptUrl\n          pageUrl\n        }\n      }\n    }\n  }\n": types.EpisodesDocument,
    "\n  query EpisodesWithShow($feedId: Float!, $first: Int) {\n    episodes(feedId: $feedId, first: $first) {\n      nodes {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n          author\n        }\n      }\n    }\n  }\n": types.EpisodesWithShowDocument,
    "\n  query EpisodeInfo($transcriptId: String!) {\n    episode(transcriptId: $transcriptId) {\n      transcriptId\n      title\n      transcriptStatus\n      unlocked\n      unlockCost\n      wordCount\n      durationSeconds\n      publishedAt\n      show {\n        feedId\n        title\n        author\n        artwork\n        url\n      }\n    }\n  }\n": types.EpisodeInfoDocument,
    "\n  query Charts($genre: String) {\n    charts(genre: $genre) {\n      genre {\n        slug\n        name\n      }\n      genres {\n        slug\n        name\n      }\n      chart {\n        rank\n        appleId\n        title\n        author\n        artwork\n        lookupUrl\n      }\n    }\n  }\n": types.ChartsDocument,
    "\n  query Trending($category: String, $max: Int, $lang: String) {\n    trending(category: $category, max: $max, lang: $lang) {\n      categories\n      shows {\n        feedId\n        title\n        categories\n        language\n      }\n    }\n  }\n": types.TrendingDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      credits\n      plan\n      email\n      billingManaged\n      unlocks {\n        transcriptId\n        unlockedAt\n        url\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n"): (typeof documents)["\n  query Usage {\n    usage {\n      plan\n      creditsAllowance\n      creditsRemaining\n      requestsToday\n      requestLimit\n      requestsRemaining\n      ledger {\n        kind\n        amount\n        balanceAfter\n        reference\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterStart($email: String!) {\n    registerStart(email: $email) {\n      ok\n      message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterConfirm($token: String!) {\n    registerConfirm(token: $token) {\n      key\n      credits\n      created\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n"): (typeof documents)["\n  mutation RotateKey {\n    rotateKey {\n      key\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n"): (typeof documents)["\n  mutation BillingPortal {\n    billingPortal {\n      url\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookSecret {\n    webhookSecret {\n      secret\n      header\n      scheme\n    }\n  }\n"): (typeof documents)["\n  query WebhookSecret {\n    webhookSecret {\n      secret\n      header\n      scheme\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      secret\n      rotated\n    }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      secret\n      rotated\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhookInbox {\n    createWebhookInbox {\n      id\n      url\n      deliveriesUrl\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  mutation CreateWebhookInbox {\n    createWebhookInbox {\n      id\n      url\n      deliveriesUrl\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookInbox($id: ID!) {\n    webhookInbox(id: $id) {\n      expiresAt\n      deliveries {\n        receivedAt\n        headers {\n          name\n          value\n        }\n        body\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebhookInbox($id: ID!) {\n    webhookInbox(id: $id) {\n      expiresAt\n      deliveries {\n        receivedAt\n        headers {\n          name\n          value\n        }\n        body\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AiSearch($transcriptId: String!, $topic: String!) {\n    aiSearch(transcriptId: $transcriptId, topic: $topic) {\n      transcriptId\n      topic\n      found\n      summary\n      mentions {\n        quote\n        context\n        timestampSeconds\n        listenUrl\n      }\n      credits\n      creditsRemaining\n    }\n  }\n"): (typeof documents)["\n  mutation AiSearch($transcriptId: String!, $topic: String!) {\n    aiSearch(transcriptId: $transcriptId, topic: $topic) {\n      transcriptId\n      topic\n      found\n      summary\n      mentions {\n        quote\n        context\n        timestampSeconds\n        listenUrl\n      }\n      credits\n      creditsRemaining\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment JobFields on Job {\n    id\n    status\n    fast\n    promiseSeconds\n    estimatedReadyAt\n    estimatedSeconds\n    queueAheadEpisodes\n    pollAfterSeconds\n    pollUrl\n    webhookUrl\n    done\n    total\n    createdAt\n    finishedAt\n    creditsRefunded\n    episodes {\n      transcriptId\n      title\n      status\n      url\n      transcriptUrl\n      charged\n      error\n    }\n  }\n"): (typeof documents)["\n  fragment JobFields on Job {\n    id\n    status\n    fast\n    promiseSeconds\n    estimatedReadyAt\n    estimatedSeconds\n    queueAheadEpisodes\n    pollAfterSeconds\n    pollUrl\n    webhookUrl\n    done\n    total\n    createdAt\n    finishedAt\n    creditsRefunded\n    episodes {\n      transcriptId\n      title\n      status\n      url\n      transcriptUrl\n      charged\n      error\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestTranscription($input: TranscriptionRequestInput!) {\n    requestTranscription(input: $input) {\n      requestId\n      job {\n        ...JobFields\n      }\n      alreadyTranscribed {\n        transcriptId\n        title\n        charged\n        url\n        transcriptUrl\n      }\n      queued\n      creditsCharged\n      creditsRemaining\n      delivery\n      notify\n      dryRun\n      creditsRequired\n      sufficient\n      fast\n      fastLaneAvailable\n      promiseSeconds\n      estimatedSeconds\n      estimatedReadyAt\n      queueAheadEpisodes\n      episodes {\n        transcriptId\n        title\n        status\n        charged\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RequestTranscription($input: TranscriptionRequestInput!) {\n    requestTranscription(input: $input) {\n      requestId\n      job {\n        ...JobFields\n      }\n      alreadyTranscribed {\n        transcriptId\n        title\n        charged\n        url\n        transcriptUrl\n      }\n      queued\n      creditsCharged\n      creditsRemaining\n      delivery\n      notify\n      dryRun\n      creditsRequired\n      sufficient\n      fast\n      fastLaneAvailable\n      promiseSeconds\n      estimatedSeconds\n      estimatedReadyAt\n      queueAheadEpisodes\n      episodes {\n        transcriptId\n        title\n        status\n        charged\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Jobs($first: Int, $after: String) {\n    jobs(first: $first, after: $after) {\n      totalCount\n      hasNextPage\n      endCursor\n      edges {\n        cursor\n        node {\n          ...JobFields\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Jobs($first: Int, $after: String) {\n    jobs(first: $first, after: $after) {\n      totalCount\n      hasNextPage\n      endCursor\n      edges {\n        cursor\n        node {\n          ...JobFields\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Job($id: String!) {\n    job(id: $id) {\n      ...JobFields\n    }\n  }\n"): (typeof documents)["\n  query Job($id: String!) {\n    job(id: $id) {\n      ...JobFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription JobUpdated($id: String!) {\n    jobUpdated(id: $id) {\n      id\n      status\n      done\n      total\n      episodes {\n        transcriptId\n        status\n        transcriptUrl\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription JobUpdated($id: String!) {\n    jobUpdated(id: $id) {\n      id\n      status\n      done\n      total\n      episodes {\n        transcriptId\n        status\n        transcriptUrl\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MyJobsUpdated {\n    myJobsUpdated {\n      id\n      status\n      done\n    }\n  }\n"): (typeof documents)["\n  subscription MyJobsUpdated {\n    myJobsUpdated {\n      id\n      status\n      done\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchShows($q: String!) {\n    search(q: $q) {\n      query\n      shows {\n        feedId\n        title\n        author\n        artwork\n        appleId\n        indexed\n        url\n        episodesUrl\n        categories\n        language\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchShows($q: String!) {\n    search(q: $q) {\n      query\n      shows {\n        feedId\n        title\n        author\n        artwork\n        appleId\n        indexed\n        url\n        episodesUrl\n        categories\n        language\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShowLookup($appleId: Float, $feedUrl: String, $url: String) {\n    showLookup(appleId: $appleId, feedUrl: $feedUrl, url: $url) {\n      feedId\n      title\n      appleId\n      url\n      episodesUrl\n    }\n  }\n"): (typeof documents)["\n  query ShowLookup($appleId: Float, $feedUrl: String, $url: String) {\n    showLookup(appleId: $appleId, feedUrl: $feedUrl, url: $url) {\n      feedId\n      title\n      appleId\n      url\n      episodesUrl\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Show($feedId: Float!) {\n    show(feedId: $feedId) {\n      feedId\n      title\n      author\n      description\n      artwork\n      language\n      categories\n      episodeCountTracked\n      newestEpisodeAt\n      feedUrl\n      website\n      appleId\n      indexed\n      url\n      episodesUrl\n    }\n  }\n"): (typeof documents)["\n  query Show($feedId: Float!) {\n    show(feedId: $feedId) {\n      feedId\n      title\n      author\n      description\n      artwork\n      language\n      categories\n      episodeCountTracked\n      newestEpisodeAt\n      feedUrl\n      website\n      appleId\n      indexed\n      url\n      episodesUrl\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShowWithEpisodes($feedId: Float!, $first: Int) {\n    show(feedId: $feedId) {\n      title\n      episodes(first: $first) {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ShowWithEpisodes($feedId: Float!, $first: Int) {\n    show(feedId: $feedId) {\n      title\n      episodes(first: $first) {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Episodes($feedId: Float!, $first: Int, $after: String) {\n    episodes(feedId: $feedId, first: $first, after: $after) {\n      readyCount\n      truncated\n      hasNextPage\n      endCursor\n      show {\n        feedId\n        title\n      }\n      edges {\n        cursor\n        node {\n          guid\n          transcriptId\n          title\n          description\n          episode\n          season\n          publishedAt\n          durationSeconds\n          audioUrl\n          transcriptStatus\n          transcriptUrl\n          pageUrl\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Episodes($feedId: Float!, $first: Int, $after: String) {\n    episodes(feedId: $feedId, first: $first, after: $after) {\n      readyCount\n      truncated\n      hasNextPage\n      endCursor\n      show {\n        feedId\n        title\n      }\n      edges {\n        cursor\n        node {\n          guid\n          transcriptId\n          title\n          description\n          episode\n          season\n          publishedAt\n          durationSeconds\n          audioUrl\n          transcriptStatus\n          transcriptUrl\n          pageUrl\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EpisodesWithShow($feedId: Float!, $first: Int) {\n    episodes(feedId: $feedId, first: $first) {\n      nodes {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n          author\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query EpisodesWithShow($feedId: Float!, $first: Int) {\n    episodes(feedId: $feedId, first: $first) {\n      nodes {\n        transcriptId\n        title\n        show {\n          feedId\n          title\n          author\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EpisodeInfo($transcriptId: String!) {\n    episode(transcriptId: $transcriptId) {\n      transcriptId\n      title\n      transcriptStatus\n      unlocked\n      unlockCost\n      wordCount\n      durationSeconds\n      publishedAt\n      show {\n        feedId\n        title\n        author\n        artwork\n        url\n      }\n    }\n  }\n"): (typeof documents)["\n  query EpisodeInfo($transcriptId: String!) {\n    episode(transcriptId: $transcriptId) {\n      transcriptId\n      title\n      transcriptStatus\n      unlocked\n      unlockCost\n      wordCount\n      durationSeconds\n      publishedAt\n      show {\n        feedId\n        title\n        author\n        artwork\n        url\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Charts($genre: String) {\n    charts(genre: $genre) {\n      genre {\n        slug\n        name\n      }\n      genres {\n        slug\n        name\n      }\n      chart {\n        rank\n        appleId\n        title\n        author\n        artwork\n        lookupUrl\n      }\n    }\n  }\n"): (typeof documents)["\n  query Charts($genre: String) {\n    charts(genre: $genre) {\n      genre {\n        slug\n        name\n      }\n      genres {\n        slug\n        name\n      }\n      chart {\n        rank\n        appleId\n        title\n        author\n        artwork\n        lookupUrl\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Trending($category: String, $max: Int, $lang: String) {\n    trending(category: $category, max: $max, lang: $lang) {\n      categories\n      shows {\n        feedId\n        title\n        categories\n        language\n      }\n    }\n  }\n"): (typeof documents)["\n  query Trending($category: String, $max: Int, $lang: String) {\n    trending(category: $category, max: $max, lang: $lang) {\n      categories\n      shows {\n        feedId\n        title\n        categories\n        language\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;