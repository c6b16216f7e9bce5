import type { OutgoingMail } from '../../infra/mail/mail-transport.js';
import type { JobDonePayload } from './job-done-payload.js';

/**
 * The mail sent to the notify address when a job is done: a link to each
 * transcript, and a word on anything refunded.
 * @param lateRefund a fast-lane premium came back because the job was late.
 */
export function completionMail(to: string, job: JobDonePayload, refunded: number, lateRefund: boolean): OutgoingMail {
  const ready = job.episodes.filter((e) => e.status === 'ready');
  const failed = job.episodes.filter((e) => e.status !== 'ready');
  const lines = [
    ready.length === job.total
      ? `Your transcription job is done: ${job.total === 1 ? 'the transcript is' : `all ${job.total} transcripts are`} ready.`
      : `Your transcription job is done: ${ready.length} of ${job.total} transcripts are ready.`,
    '',
  ];
  for (const e of ready) {
    lines.push(e.title, `  Transcript: ${e.transcript_url}`, `  Page: ${e.url}`, '');
  }
  if (failed.length > 0) {
    lines.push('These could not be transcribed (the audio could not be fetched or decoded); their credits were refunded:');
    for (const e of failed) lines.push(`  ${e.title} (${e.transcript_id})`);
    lines.push('');
  }
  if (lateRefund) lines.push('The job finished later than the fast lane promised, so its premium was refunded.', '');
  if (refunded > 0) lines.push(`Credits refunded for this job: ${refunded}.`, '');
  lines.push(`Job status: ${job.poll_url}`, 'Transcripts are read with your API key: GET the transcript link with "Authorization: Bearer <key>".');
  return {
    to,
    subject: failed.length === 0 ? 'Your Podtext transcripts are ready' : `Your Podtext job is done: ${ready.length} of ${job.total} ready`,
    text: lines.join('\n'),
  };
}
