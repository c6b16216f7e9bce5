/**
 * The script of an episode page while the episode is being transcribed,
 * served at /assets/episode-wait.js: it asks for the page again every few
 * seconds and, once the episode is no longer being transcribed, shows the
 * page as it is now (the transcript, or how to unlock it). Pages count no
 * request against the allowance. Without it, the page asks the reader to reload.
 */
export const episodeWaitJs = `(() => {
'use strict';
const EVERY_MS = 5000;
if (!document.getElementById('transcribing')) return;
document.documentElement.classList.add('js');
async function check() {
  try {
    const res = await fetch(location.pathname, { cache: 'no-store', credentials: 'same-origin' });
    if (res.ok && !(await res.text()).includes('id="transcribing"')) { location.reload(); return; }
  } catch (e) { /* the connection dropped for a moment: ask again */ }
  setTimeout(check, EVERY_MS);
}
setTimeout(check, EVERY_MS);
})();
`;
