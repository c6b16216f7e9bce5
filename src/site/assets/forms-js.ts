/**
 * Every page's script, served at /assets/forms.js: a form that changes
 * something is sent once while its page waits for the answer. A second click
 * on a slow connection (a double-click) would post it again: the second post
 * of "Rotate my key" came with the session the first had just ended, signing
 * the browser out before it saw its new key, and a second "Transcribe" made a
 * second job and a second mail. Without the script, nothing changes.
 */
export const formsJs = `(() => {
'use strict';
// Long enough for any answer to arrive; short enough that a form whose load was stopped (Esc) works again.
const HOLD_MS = 10000;
document.addEventListener('submit', (e) => {
  const form = e.target;
  if (!(form instanceof HTMLFormElement) || form.method !== 'post' || e.defaultPrevented) return;
  if (form.dataset.sent) { e.preventDefault(); return; }
  form.dataset.sent = '1';
  form.setAttribute('aria-busy', 'true');
  setTimeout(() => release(form), HOLD_MS);
});
function release(form) { delete form.dataset.sent; form.removeAttribute('aria-busy'); }
// Back on this page from the browser's history: its forms may be sent again.
window.addEventListener('pageshow', (e) => { if (e.persisted) document.querySelectorAll('form[data-sent]').forEach(release); });
})();
`;
