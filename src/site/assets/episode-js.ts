/**
 * The episode page's script, served at /assets/episode.js: click or Enter on a
 * word seeks the player; the spoken word is marked with aria-current and kept
 * in view unless the reader scrolls away; `#t=<seconds>` seeks on load; find in
 * the transcript; copy a link to the current moment. Once it is all wired it
 * marks <html> with `js`, which shows the controls that need it (without
 * script they would do nothing, so the page hides them).
 */
export const episodeJs = `(() => {
'use strict';
const player = document.getElementById('player');
const box = document.getElementById('transcript');
if (!box) return;
const words = Array.from(box.querySelectorAll('.w'));
const starts = words.map((w) => Number(w.dataset.start));
const followBtn = document.getElementById('follow');
let current = null;
let following = true;
let autoScrollUntil = 0;

function fmt(s) { s = Math.floor(s); const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = String(s % 60).padStart(2, '0'); return h ? h + ':' + String(m).padStart(2, '0') + ':' + x : m + ':' + x; }
// The last word starting at or before t.
function indexAt(t) {
  let lo = 0, hi = starts.length - 1, best = -1;
  while (lo <= hi) { const mid = (lo + hi) >> 1; if (starts[mid] <= t + 0.001) { best = mid; lo = mid + 1; } else hi = mid - 1; }
  return best;
}
function reveal(el) {
  autoScrollUntil = Date.now() + 800;
  el.scrollIntoView({ block: 'center', behavior: 'auto' });
}
function mark(t, scroll) {
  const i = indexAt(t);
  const el = i >= 0 ? words[i] : null;
  if (el === current) return;
  if (current) current.removeAttribute('aria-current');
  current = el;
  if (!el) return;
  el.setAttribute('aria-current', 'true');
  if (scroll && following) reveal(el);
}
function seek(t) {
  if (player) {
    try { player.currentTime = t; } catch (e) { /* before metadata: applied on loadedmetadata */ }
    pending = t;
  }
  following = true;
  if (followBtn) followBtn.hidden = true;
  mark(t, true);
}
let pending = null;
if (player) {
  player.addEventListener('loadedmetadata', () => { if (pending !== null && Math.abs(player.currentTime - pending) > 0.2) player.currentTime = pending; });
  player.addEventListener('seeked', () => { pending = null; mark(player.currentTime, true); });
  player.addEventListener('timeupdate', () => mark(player.currentTime, true));
  const tick = () => { if (!player.paused) { mark(player.currentTime, true); requestAnimationFrame(tick); } };
  player.addEventListener('play', () => requestAnimationFrame(tick));
}
function setHash(t) { history.replaceState(null, '', '#t=' + Math.floor(t)); }
box.addEventListener('click', (e) => {
  const el = e.target.closest('.w, .when');
  if (!el) return;
  const t = Number(el.dataset.start);
  setHash(t);
  seek(t);
});
box.addEventListener('keydown', (e) => {
  const el = e.target.closest('.w, .when');
  if (!el) return;
  if (el.classList.contains('w') && (e.key === 'Enter' || e.key === ' ')) {
    e.preventDefault();
    const t = Number(el.dataset.start); setHash(t); seek(t);
  } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
    // Words are reached from their paragraph's time button, then word by word.
    e.preventDefault();
    let i = el.classList.contains('w') ? words.indexOf(el) : words.indexOf(el.parentElement.querySelector('.w')) - (e.key === 'ArrowRight' ? 1 : 0);
    i += e.key === 'ArrowRight' ? 1 : -1;
    const next = words[Math.max(0, Math.min(words.length - 1, i))];
    if (next) next.focus();
  }
});
// The reader scrolled on purpose: stop following until they ask again.
function readerScrolled() {
  if (Date.now() < autoScrollUntil || !player || player.paused) return;
  following = false;
  if (followBtn) followBtn.hidden = false;
}
window.addEventListener('wheel', readerScrolled, { passive: true });
window.addEventListener('touchmove', readerScrolled, { passive: true });
window.addEventListener('keydown', (e) => { if (['PageUp', 'PageDown', 'Home', 'End'].includes(e.key) && !e.target.closest('input')) readerScrolled(); });
if (followBtn) followBtn.addEventListener('click', () => { following = true; followBtn.hidden = true; if (current) reveal(current); });

function target() { const m = /[#&]t=(\\d+(?:\\.\\d+)?)/.exec(location.hash); return m ? Number(m[1]) : null; }
function fromHash() { const t = target(); if (t !== null) seek(t); }

// Find in transcript: words containing each typed word in sequence.
const find = document.getElementById('find');
const findStatus = document.getElementById('find-status');
let hits = [];
let hitAt = -1;
const norm = (s) => s.toLowerCase().replace(/[^\\p{L}\\p{N}']+/gu, '');
const plain = words.map((w) => norm(w.textContent));
function search() {
  for (const h of box.querySelectorAll('.w.hit')) h.classList.remove('hit');
  hits = []; hitAt = -1;
  const q = find.value.trim().split(/\\s+/).map(norm).filter(Boolean);
  if (!q.length) { findStatus.textContent = ''; return; }
  for (let i = 0; i + q.length <= plain.length; i++) {
    if (q.every((t, k) => plain[i + k].includes(t))) { hits.push(i); for (let k = 0; k < q.length; k++) words[i + k].classList.add('hit'); }
  }
  findStatus.textContent = hits.length ? hits.length + (hits.length === 1 ? ' match' : ' matches') + ': Enter for the next' : 'No match';
}
if (find) {
  find.addEventListener('input', search);
  find.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !hits.length) return;
    e.preventDefault();
    hitAt = (hitAt + (e.shiftKey ? hits.length - 1 : 1)) % hits.length;
    const w = words[hits[hitAt]];
    following = false;
    reveal(w);
    findStatus.textContent = 'Match ' + (hitAt + 1) + ' of ' + hits.length + ' at ' + fmt(starts[hits[hitAt]]);
  });
}

const copy = document.getElementById('copy-moment');
const out = document.getElementById('moment-out');
if (copy) copy.addEventListener('click', async () => {
  const t = player && player.currentTime ? player.currentTime : (current ? Number(current.dataset.start) : 0);
  const link = location.origin + location.pathname + '#t=' + Math.floor(t);
  try { await navigator.clipboard.writeText(link); out.textContent = 'Copied: ' + link; }
  catch (e) { out.textContent = 'Link to this moment: ' + link; }
});

// Everything works now: show its controls, then open at #t= (after they take their place, so the word stays in view).
document.documentElement.classList.add('js');
window.addEventListener('hashchange', fromHash);
fromHash();
})();
`;
