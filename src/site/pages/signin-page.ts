import { html } from 'hono/html';
import { layout, type PageChrome } from '../layout.js';

/** `/signin`: a key opens a session; an address gets its key re-sent. */
export function signinPage(d: { formCsrf: string; error?: string | null; sent?: string | null; next?: string }, chrome: PageChrome) {
  const csrf = html`<input type="hidden" name="csrf" value="${d.formCsrf}">`;
  return layout(
    'Sign in · Podtext',
    html`<h1>Sign in with your key</h1>
${d.error ? html`<p class="error-box" role="alert">${d.error}</p>` : ''}
<form method="post" action="/signin" class="card" id="signin">
<input type="hidden" name="next" value="${d.next ?? '/account'}">${csrf}
<p><label for="key">API key</label><br><input id="key" name="key" type="password" autocomplete="current-password" spellcheck="false" size="60" required placeholder="ptk_…"></p>
<button>Sign in</button>
</form>
<h2>Lost your key?</h2>
${d.sent ? html`<p class="notice" role="status">${d.sent}</p>` : ''}
<form method="post" action="/register" class="card row" id="resend"><input type="hidden" name="from" value="signin">${csrf}
<label for="email">Email</label> <input type="email" id="email" name="email" required autocomplete="email">
<button>Email me my key</button>
</form>
<p class="muted">New here? The same form sends a link to create an account.</p>`,
    chrome,
  );
}
