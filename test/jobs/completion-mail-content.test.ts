import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_KEY } from '../../src/core/accounts/registration-mails.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, postRequest } from './support/jobs-api.js';

let t: TestPodtext;
let audio: AudioServer;
let inbox: Inbox;

beforeAll(async () => {
  audio = await startAudioServer();
  inbox = await startSmtpInbox();
  t = await startTestPodtext({
    env: { OUTBOUND_ALLOW: audio.endpoint, SMTP_URL: inbox.url, WORKERS: '1' },
    jobs: { options: { maxAttempts: 1, retryDelaySeconds: 0.1 }, workers: { pollMs: 200 } },
  });
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
  await inbox?.close();
});

describe('the completion mail', () => {
  it("never carries the notified account's key, whatever a title says, and still arrives at an address without an account", async () => {
    const requester = await t.account({ credits: 5 });
    const other = await t.account();
    const stranger = `stranger-${Date.now()}@example.net`;
    for (const email of [other.email, stranger]) {
      const title = `Ep ${CURRENT_KEY} end`;
      const r = await postRequest(t, requester.key, { episodes: [{ guid: newGuid('gone'), url: audio.url('/gone.mp3'), title, secs: 60 }], email });
      expect(r.status).toBe(200);
      await jobDone(t, requester.key, r.body.job.id, 30_000);
      const mail = await inbox.next(email, 15_000);
      expect(mail.text).toContain(title);
      if (email === other.email) expect(mail.text).not.toContain(other.key);
    }
  });
});
