import { html } from 'hono/html';
import { layout, type PageChrome } from '../layout.js';

/**
 * An error as a page in the site's style (404, 403, 500). With a signed-in
 * browser's `chrome` its navigation still offers Account and Sign out: a
 * refused unlock must not read as having been signed out.
 */
export function errorPage(status: number, heading: string, message: string, chrome: PageChrome = {}) {
  return layout(
    `${heading} · Podtext`,
    html`<h1>${heading}</h1>
<p class="error-box">${message}</p>
<p class="muted">Error ${status}.</p>
<p><a href="/">Back to the home page</a></p>`,
    chrome,
  );
}
