import { html } from 'hono/html';
import type { EpisodeList } from '../../core/catalog/discovery/episode-list.js';
import { layout, type PageChrome } from '../layout.js';
import { showArt } from './show-card.js';
import { clock, day } from './format.js';

const STATUS_TEXT: Record<string, string> = { ready: 'Transcript ready', processing: 'Transcribing', none: 'No transcript yet' };

/** `/shows/{feed_id}`: the show and a page of its episodes, newest first, each with its transcript status. */
export function showPage(list: EpisodeList, chrome: PageChrome, page: { after: string | null } = { after: null }) {
  const s = list.show;
  const last = list.episodes.at(-1);
  // The feed's own language and direction (Hebrew, Arabic…), for screen readers and bidirectional text.
  const lang = html` dir="auto"${/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(s.language ?? '') ? html` lang="${s.language}"` : ''}`;
  const base = `/shows/${String(s.id)}`;
  const pages = page.after || list.hasMore
    ? html`<nav aria-label="Episode pages" class="row spaced">${page.after ? html`<a href="${base}">Newest episodes</a>` : ''}${list.hasMore && last ? html`<a href="${base}?after=${last.transcriptId}" rel="next">Older episodes</a>` : ''}</nav>`
    : '';
  return layout(
    `${s.title} · Podtext`,
    html`<div class="row show-head">${showArt(s, true)}
<div class="show-facts"><h1${lang}>${s.title}</h1>
<dl class="facts">
${s.author ? html`<dt>By</dt><dd>${s.author}</dd>` : ''}
${s.categories.length ? html`<dt>Categories</dt><dd>${s.categories.join(', ')}</dd>` : ''}
${s.language ? html`<dt>Language</dt><dd>${s.language}</dd>` : ''}
${page.after ? html`<dt>Transcripts</dt><dd>${list.readyCount}</dd>` : html`<dt>Episodes</dt><dd>${list.episodes.length}${list.hasMore ? '+' : ''}, ${list.readyCount} with a transcript</dd>`}
${s.website ? html`<dt>Website</dt><dd>${/^https?:\/\//i.test(s.website) ? html`<a href="${s.website}" rel="noopener nofollow">${s.website}</a>` : s.website}</dd>` : ''}
</dl></div></div>
${s.description ? html`<p${lang}>${s.description.slice(0, 1200)}</p>` : ''}
<h2>Episodes</h2>
${list.episodes.length
  ? html`<table id="episodes"><thead><tr><th scope="col">Episode</th><th scope="col">Published</th><th scope="col">Length</th><th scope="col">Transcript</th></tr></thead><tbody>
${list.episodes.map(
  (e) => html`<tr data-transcript-id="${e.transcriptId}"><td${lang}><a href="/t/${e.transcriptId}">${e.title}</a></td><td>${e.publishedAt ? day(e.publishedAt) : ''}</td><td>${e.durationSeconds ? clock(e.durationSeconds) : ''}</td>
<td><span class="status ${e.transcriptStatus}">${STATUS_TEXT[e.transcriptStatus] ?? e.transcriptStatus}</span>${e.transcriptStatus === 'none' ? html` · <a href="/t/${e.transcriptId}#transcribe" aria-label="Transcribe ${e.title}">Transcribe</a>` : ''}</td></tr>`,
)}</tbody></table>${pages}`
  : page.after
    ? html`<p>No older episodes. <a href="${base}">Newest episodes</a></p>`
    : html`<p>No episodes known yet.</p>`}`,
    chrome,
  );
}
