import { html } from 'hono/html';
import type { RequestResult } from '../../core/jobs/create-request.js';
import { prices } from '../../core/pricing.js';
import type { Segment, TranscriptDoc } from '../../core/transcripts/formats/transcript-doc.js';
import { layout, type PageChrome } from '../layout.js';
import { clock } from './format.js';

export interface EpisodePageData {
  transcriptId: string;
  title: string;
  /** Null for an episode added by request, which belongs to no show a visitor can browse. */
  show: { id: bigint; title: string } | null;
  audioUrl: string | null;
  status: string;
  /** The transcript, when this visitor may read it. */
  doc: TranscriptDoc | null;
  /** Ready, but this visitor has not unlocked it. */
  locked: boolean;
  /** The dry-run quote for transcribing it (signed in, no transcript yet). */
  quote: RequestResult | null;
  flash: string | null;
}

/** Consecutive segments by one speaker read as one paragraph. */
function turns(segments: Segment[]): Segment[][] {
  const out: Segment[][] = [];
  for (const s of segments) {
    const last = out.at(-1);
    if (last && last[0]!.speaker === s.speaker) last.push(s);
    else out.push([s]);
  }
  return out;
}

/**
 * Find, copy-a-link and the time buttons work only through episode.js: they
 * are `needs-js`, shown once the script has run (it marks <html> with `js`);
 * without it each paragraph shows its time as text (`no-js`).
 */
function transcriptView(doc: TranscriptDoc) {
  return html`<div class="row needs-js" role="search" aria-label="In this transcript">
<label for="find">Find in transcript</label> <input type="search" id="find" autocomplete="off">
<span id="find-status" role="status" class="muted"></span>
<button type="button" class="quiet" id="copy-moment">Copy link to this moment</button>
<button type="button" class="quiet" id="follow" hidden>Follow along</button>
</div>
<p class="muted" id="moment-out" role="status"></p>
<div id="transcript" aria-label="Transcript">
${turns(doc.segments).map((t) => {
  const start = t[0]!.start;
  const who = t[0]!.speaker;
  const text = t.map((s) => s.text).join(' ');
  return html`<div class="turn"><button type="button" class="when needs-js" data-start="${start}" aria-label="Play from ${clock(start)}${who ? `, ${who}` : ''}">${clock(start)}</button><span class="at no-js">${clock(start)}</span>
<p><span class="sr-only">${who ? `${who}: ` : ''}${text}</span><span aria-hidden="true">${who ? html`<span class="who">${who}:</span> ` : ''}${t.map((s) =>
    s.words.map((w) =>
      // A word cut out of the audio served now: shown struck through, with nothing to seek to.
      w.removed ? html`<del class="cut" title="Cut from the audio served now">${w.w}</del> ` : html`<span class="w" tabindex="-1" data-start="${w.s}">${w.w}</span> `,
    ),
  )}</span></p></div>`;
})}
</div>`;
}

function quoteView(d: EpisodePageData, chrome: PageChrome) {
  if (d.status === 'processing') {
    return html`<p class="notice" id="transcribing">This episode is being transcribed. <span class="needs-js">The transcript appears here once it is done.</span><span class="no-js">Reload this page once it is done.</span></p>`;
  }
  if (!chrome.signedIn) return html`<p class="notice">No transcript yet. <a href="/signin?next=/t/${d.transcriptId}">Sign in</a> to have it transcribed.</p>`;
  if (!d.audioUrl) return html`<p class="notice">No transcript yet, and the feed gives no audio to transcribe.</p>`;
  const q = d.quote;
  return html`<section class="card" id="transcribe" aria-labelledby="transcribe-h"><h2 id="transcribe-h">Transcribe this episode</h2>
${q
  ? html`<p id="quote">Costs <strong data-quote="${q.creditsRequired}">${q.creditsRequired} credit${q.creditsRequired === 1 ? '' : 's'}</strong> (you have ${q.creditsRemaining}). ${q.delivery}</p>`
  : ''}
<form method="post" action="/t/${d.transcriptId}/transcribe"><input type="hidden" name="csrf" value="${chrome.csrf}">
${q && !q.sufficient ? html`<p class="error-box">Your balance does not cover this.</p>` : html`<button>Transcribe</button>`}</form></section>`;
}

/** `/t/{transcript_id}`: player and transcript, or how to unlock or transcribe it. */
/** The formats a reader can download, as the API serves them (JSON with timed segments). */
export const DOWNLOADS: readonly (readonly [string, string])[] = [
  ['txt', 'Text'],
  ['srt', 'SRT'],
  ['vtt', 'WebVTT'],
  ['json', 'JSON'],
];

export function episodePage(d: EpisodePageData, chrome: PageChrome) {
  return layout(
    d.show ? `${d.title} · ${d.show.title} · Podtext` : `${d.title} · Podtext`,
    html`${d.show ? html`<p><a href="/shows/${String(d.show.id)}">${d.show.title}</a></p>` : ''}
<h1>${d.title}</h1>
${d.flash ? html`<p class="notice" role="status" id="flash">${d.flash}</p>` : ''}
<div class="player">${d.audioUrl ? html`<audio id="player" controls preload="metadata" src="${d.audioUrl}" aria-label="Episode audio"></audio>` : html`<p id="no-audio">No audio address for this episode.</p>`}</div>
${d.doc
  ? html`<nav aria-label="Download the transcript" class="row downloads">Download: ${DOWNLOADS.map(([format, label]) => html`<a href="/t/${d.transcriptId}/download/${format}" download>${label}</a>`)}</nav>
${transcriptView(d.doc)}`
  : d.locked
    ? html`<section class="card" id="locked" aria-labelledby="locked-h"><h2 id="locked-h">Unlock this transcript</h2>
<p>Unlocking costs <strong>${prices.unlock} credit</strong>, once; then it is yours here and through the API in every format.</p>
${chrome.signedIn
  ? html`<form method="post" action="/t/${d.transcriptId}/unlock"><input type="hidden" name="csrf" value="${chrome.csrf}"><button data-action="unlock">Unlock for ${prices.unlock} credit</button></form>`
  : html`<p><a class="button" href="/signin?next=/t/${d.transcriptId}">Sign in to unlock</a></p>`}</section>`
    : quoteView(d, chrome)}`,
    { ...chrome, scripts: d.doc ? ['/assets/episode.js'] : d.status === 'processing' ? ['/assets/episode-wait.js'] : [] },
  );
}
