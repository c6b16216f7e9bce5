import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface PageChrome {
  /** Signed in: shows Account and Sign out (with the CSRF token). */
  signedIn?: boolean;
  csrf?: string;
  /** Scripts served by Podtext, by path, after the one every page has (forms.js: a form is sent once). */
  scripts?: string[];
}

/** Every page's frame: title, skip link, navigation, main landmark, footer. */
export function layout(title: string, body: Html, chrome: PageChrome = {}) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/assets/site.css">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Site">
<a class="brand" href="/">Podtext</a>
<a href="/#search">Search</a>
<a href="/docs">API docs</a>
<a href="/graphql">GraphQL</a>
${chrome.signedIn
  ? html`<a href="/account">Account</a>
<form method="post" action="/signout"><input type="hidden" name="csrf" value="${chrome.csrf ?? ''}"><button>Sign out</button></form>`
  : html`<a href="/signin">Sign in</a>`}
</nav></header>
<main id="main" tabindex="-1">
${body}
</main>
<footer>Podtext: open-source podcast transcripts. <a href="/openapi.json">openapi.json</a> · <a href="/llms.txt">llms.txt</a></footer>
${['/assets/forms.js', ...(chrome.scripts ?? [])].map((s) => html`<script src="${s}" defer></script>`)}
</body></html>`;
}
