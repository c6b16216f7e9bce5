import { html } from 'hono/html';
import { layout, type PageChrome } from '../layout.js';

/**
 * An error as a page in the site's style (404, 403, 500), with a link home
 * and, when given, one `back` to where the visitor came from. With a signed-in
 * browser's `chrome` its navigation still offers Account and Sign out: a
 * refused unlock must not read as having been signed out.
 */
export function errorPage(status: number, heading: string, message: string, chrome: PageChrome = {}, back?: { href: string; label: string }) {
  return layout(
    `${heading} · Podtext`,
    html`<h1>${heading}</h1>
<p class="error-box">${message}</p>
<p class="muted">Error ${status}.</p>
${back && back.href !== '/' ? html`<p><a href="${back.href}">${back.label}</a></p>` : ''}
<p><a href="/">Back to the home page</a></p>`,
    chrome,
  );
}
