import { html, raw } from 'hono/html';

export interface EpisodePageInfo {
  transcriptId: string;
  title: string;
  showTitle: string;
  audioUrl: string | null;
  status: string;
  isSample: boolean;
}

/**
 * `{site_url}/t/{id}`: the episode with its audio and transcript. `#t=<seconds>`
 * (the AI Search listen links) seeks the player and highlights that moment.
 * The transcript loads through the API with the visitor's key (kept in this
 * browser only); the public sample needs none.
 */
export function episodePage(info: EpisodePageInfo) {
  const config = JSON.stringify({ id: info.transcriptId, sample: info.isSample, ready: info.status === 'ready' });
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${info.title} · Podtext</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
.seg{padding:.2rem .4rem;border-radius:4px;cursor:pointer}.seg:hover{background:#f1f1f1}.seg.now{background:#fff3b0}
.t{color:#777;font-variant-numeric:tabular-nums;margin-right:.5rem}.who{font-weight:600;margin-right:.3rem}
audio{width:100%}</style></head>
<body>
<p><a href="/">Podtext</a> · ${info.showTitle}</p>
<h1>${info.title}</h1>
${info.audioUrl ? html`<audio id="player" controls preload="metadata" src="${info.audioUrl}"></audio>` : html`<p id="no-audio">No audio address for this episode.</p>`}
<form id="key-form" hidden><label>API key <input name="key" autocomplete="off" size="50"></label> <button>Show transcript</button></form>
<p id="status" role="status"></p>
<div id="transcript"></div>
<script>${raw(`const page = ${config};
const status = document.getElementById('status');
const box = document.getElementById('transcript');
const player = document.getElementById('player');
const fmt = (s) => { s = Math.floor(s); const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60; return (h ? h + ':' + String(m).padStart(2, '0') : m) + ':' + String(x).padStart(2, '0'); };
function target() { const m = /[#&]t=(\\d+(?:\\.\\d+)?)/.exec(location.hash); return m ? Number(m[1]) : null; }
function highlight(t) {
  let best = null;
  for (const el of box.querySelectorAll('.seg')) { el.classList.remove('now'); if (Number(el.dataset.start) <= t) best = el; }
  if (best) { best.classList.add('now'); best.scrollIntoView({ block: 'center' }); }
}
function seek(t) { if (player) { player.currentTime = t; } highlight(t); }
async function load(key) {
  const r = await fetch('/api/v1/transcripts/' + page.id + '?format=json&timestamps=1', { headers: key ? { authorization: 'Bearer ' + key } : {} });
  const body = await r.json();
  if (!r.ok) { status.textContent = body.error.message; if (r.status === 401 || r.status === 402) document.getElementById('key-form').hidden = false; return; }
  status.textContent = '';
  box.innerHTML = '';
  for (const s of body.segments) {
    const p = document.createElement('p'); p.className = 'seg'; p.dataset.start = s.start;
    const t = document.createElement('span'); t.className = 't'; t.textContent = fmt(s.start); p.append(t);
    if (s.speaker) { const w = document.createElement('span'); w.className = 'who'; w.textContent = s.speaker + ':'; p.append(w); }
    p.append(document.createTextNode(s.text));
    p.addEventListener('click', () => { history.replaceState(null, '', '#t=' + Math.floor(s.start)); seek(s.start); });
    box.append(p);
  }
  const t = target(); if (t !== null) seek(t);
}
document.getElementById('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const key = new FormData(e.target).get('key');
  localStorage.setItem('podtext-key', key);
  load(key);
});
window.addEventListener('hashchange', () => { const t = target(); if (t !== null) seek(t); });
if (!page.ready) status.textContent = 'No transcript yet: request one with POST /api/v1/requests.';
else load(page.sample ? null : localStorage.getItem('podtext-key'));
if (player) player.addEventListener('loadedmetadata', () => { const t = target(); if (t !== null) player.currentTime = t; });`)}</script>
</body></html>`;
}
