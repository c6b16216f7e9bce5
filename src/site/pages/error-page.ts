import { html } from 'hono/html';
import { layout } from '../layout.js';

/** An error as a page in the site's style (404, 403, 500). */
export function errorPage(status: number, heading: string, message: string) {
  return layout(
    `${heading} · Podtext`,
    html`<h1>${heading}</h1>
<p class="error-box">${message}</p>
<p class="muted">Error ${status}.</p>
<p><a href="/">Back to the home page</a></p>`,
  );
}
