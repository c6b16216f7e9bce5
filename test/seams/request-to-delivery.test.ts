import { freePort } from '../support/free-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { verifySignature } from '../../src/webhook-signature.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { waitFor } from '../jobs/support/wait.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';

// From `POST /requests` to what the customer receives, with nothing between
// faked: real audio transcribed by the real workers, the signed webhook sent
// over a real socket to a test inbox of this Podtext and checked with the
// account's secret, and the completion mail through a real SMTP server.

type Delivery = { headers: Record<string, string>; body: { event: string; job: { id: string; status: string } }; raw_body: string };

let t: TestPodtext;
let site: string;
let audio: AudioServer;
let smtp: Inbox;
let mp3: Buffer;
let stalled = true;

beforeAll(async () => {
  mp3 = await spokenMp3(SHORT_PASSAGE);
  audio = await startAudioServer();
  audio.file('/spoken.mp3', mp3);
  // Half the file, then nothing until the test lets go: a job caught running.
  audio.handle('/stall.mp3', (_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(mp3.length) });
    res.write(mp3.subarray(0, mp3.length >> 1));
    const finish = () => (stalled ? setTimeout(finish, 50) : res.end(mp3.subarray(mp3.length >> 1)));
    finish();
  });
  smtp = await startSmtpInbox();
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  t = await startTestPodtext({ env: { PORT: String(port), SITE_URL: site, OUTBOUND_ALLOW: audio.endpoint, SMTP_URL: smtp.url, WORKERS: '1' } });
  await t.podtext.listen();
  t.podtext.startWorkers();
});

afterAll(async () => {
  stalled = false;
  await t?.close();
  await audio?.close();
  await smtp?.close();
});

async function deliveries(key: string, inboxId: string): Promise<Delivery[]> {
  return waitFor(async () => {
    const res = await t.api('GET', `/webhooks/inbox/${inboxId}`, { key });
    const { deliveries: d } = (await res.json()) as { deliveries: Delivery[] };
    return d.length > 0 ? d : undefined;
  }, 30_000, 'a webhook delivery', 100);
}

async function setUp(credits = 5) {
  const a = await t.account({ credits });
  const { secret } = (await (await t.api('GET', '/webhooks/secret', { key: a.key })).json()) as { secret: string };
  const inbox = (await (await t.api('POST', '/webhooks/inbox', { key: a.key })).json()) as { id: string; url: string };
  return { a, secret, inbox };
}

describe('a transcription request, end to end', () => {
  it('POST /requests with a webhook_url: transcribed, the signed webhook verifies with the secret, the mail arrives', async () => {
    const { a, secret, inbox } = await setUp();
    const guid = newGuid('seam');
    const created = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/spoken.mp3'), title: 'Seam episode' }], webhook_url: inbox.url });
    expect(created.status).toBe(200);
    const jobId = created.body.job.id as string;
    await jobDone(t, a.key, jobId, 150_000);

    const [d] = await deliveries(a.key, inbox.id);
    expect(d!.body).toMatchObject({ event: 'job.done', job: { id: jobId } });
    expect(d!.headers['x-service-job']).toBe(jobId);
    expect(verifySignature({ header: d!.headers['x-service-signature']!, rawBody: d!.raw_body, secrets: [secret] })).toMatchObject({ ok: true });
    expect(verifySignature({ header: d!.headers['x-service-signature']!, rawBody: d!.raw_body, secrets: ['whsec_someone-else'] }).ok).toBe(false);
    // The owner reads the delivery's fate on the job; another account sees no such job.
    const webhookOf = async (key: string) =>
      (await t.gql<{ job: { webhook: { state: string; attempts: { status: number | null; error: string | null }[] } | null } }>(
        'query($id: String!) { job(id: $id) { webhook { state attempts { status error } nextAttemptAt } } }', { id: jobId }, key)).body;
    await expect.poll(async () => (await webhookOf(a.key)).data?.job.webhook?.state, { timeout: 10_000 }).toBe('delivered');
    expect((await webhookOf(a.key)).data?.job.webhook?.attempts).toEqual([{ status: 200, error: null }]);
    expect((await webhookOf((await t.account()).key)).errors?.[0]?.extensions?.code).toBe('not_found');

    const mail = await smtp.next(a.email, 30_000);
    expect(mail.subject).toBe('Your Podtext transcripts are ready');
    expect(mail.text).toContain(`${site}/api/v1/transcripts/${transcriptIdFor(guid)}`);
    expect(mail.text).toContain('Seam episode');
  }, 240_000);

  it('the key rotated while the job runs: the old key is refused at once, the webhook and the mail still arrive', async () => {
    stalled = true;
    const { a, secret, inbox } = await setUp();
    const guid = newGuid('rotate');
    const created = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/stall.mp3'), title: 'Rotated mid-job' }], webhook_url: inbox.url });
    expect(created.status).toBe(200);
    const jobId = created.body.job.id as string;
    const { db } = t.podtext.services;
    await waitFor(async () => ((await db.transcriptionTask.findFirst({ where: { transcriptId: transcriptIdFor(guid), status: 'running' } })) ? true : undefined), 30_000, 'the task to run', 20);

    const rotated = await t.api('POST', '/key/rotate', { key: a.key });
    expect(rotated.status).toBe(200);
    const { key: newKey } = (await rotated.json()) as { key: string };
    expect((await t.api('GET', `/jobs/${jobId}`, { key: a.key })).status).toBe(401);
    stalled = false;

    const job = await jobDone(t, newKey, jobId, 150_000);
    expect(job.status).toBe('done');
    const [d] = await deliveries(newKey, inbox.id);
    expect(d!.body).toMatchObject({ event: 'job.done', job: { id: jobId } });
    expect(verifySignature({ header: d!.headers['x-service-signature']!, rawBody: d!.raw_body, secrets: [secret] })).toMatchObject({ ok: true });
    const mail = await smtp.next(a.email, 30_000);
    expect(mail.text).toContain('Rotated mid-job');
  }, 240_000);
});
