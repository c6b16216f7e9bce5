import { html } from 'hono/html';
import { layout, type PageChrome } from '../layout.js';

/**
 * The emailed link lands here. Opening it does not spend the token (mail
 * scanners prefetch links); the button posts it.
 */
export function confirmPage(token: string, formCsrf: string, chrome: PageChrome) {
  return layout(
    'Confirm your registration · Podtext',
    html`<h1>Confirm your registration</h1>
<p>Creating an account accepts Podtext's terms and privacy policy.</p>
<form method="post" action="/confirm"><input type="hidden" name="token" value="${token}"><input type="hidden" name="csrf" value="${formCsrf}"><button id="confirm">Create my account and show my key</button></form>`,
    chrome,
  );
}

/** After confirming: the key, shown this once, and this browser signed in. */
export function keyShownPage(d: { key: string; credits: number; created: boolean }, chrome: PageChrome) {
  return layout(
    'Your key · Podtext',
    html`<h1>${d.created ? 'Your account is ready' : 'Welcome back'}</h1>
<p>${d.created ? `You have ${d.credits} credits to start with. ` : ''}This browser is signed in. Your API key, shown only this once:</p>
<code class="key" id="api-key">${d.key}</code>
<p>Keep it somewhere safe: send it as <code>Authorization: Bearer &lt;key&gt;</code> to the API. Lost it? Sign-in offers to email it again.</p>
<p><a class="button" href="/account">Go to my account</a> <a class="button quiet" href="/">Find a show</a></p>`,
    chrome,
  );
}
