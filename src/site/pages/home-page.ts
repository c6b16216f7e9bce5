import { html } from 'hono/html';
import type { Charts } from '../../core/catalog/discovery/charts.js';
import type { SearchResult } from '../../core/catalog/discovery/search-shows.js';
import type { Trending } from '../../core/catalog/discovery/trending.js';
import { planNames, plans, priceTable } from '../../core/pricing.js';
import { layout, type PageChrome } from '../layout.js';
import { artTile, showCard } from './show-card.js';

export interface HomeData {
  q: string;
  results: SearchResult | null;
  searchError: string | null;
  charts: Charts | null;
  trending: Trending | null;
  registered: string | null;
  /** The register form's token (`formToken`); only visitors see the form. */
  formCsrf: string;
}

/** The price table is written for Markdown (openapi.json, llms.txt): its `code` spans become <code> here. */
function codeSpans(text: string) {
  return text.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part));
}

/** `/`: search, charts and trending to browse, prices and plans, and a key for newcomers. */
export function homePage(d: HomeData, chrome: PageChrome) {
  const title = d.q ? `“${d.q}” · Podtext search` : 'Podtext: podcast transcripts';
  return layout(
    title,
    html`<h1>${d.q ? html`Search results for “${d.q}”` : 'Podcast transcripts, word by word'}</h1>
<p class="muted">Find a show by its name, a directory link (Apple Podcasts) or its RSS feed address. Read and play transcripts word by word, unlock them, or have new episodes transcribed.</p>
<form class="search row" id="search" role="search" method="get" action="/">
<label for="q" class="sr-only">Show name, directory link or RSS URL</label>
<input type="search" id="q" name="q" value="${d.q}" placeholder="Show name, Apple Podcasts link or RSS URL" maxlength="500">
<button>Search</button>
</form>
${d.searchError ? html`<p class="error-box" role="alert">${d.searchError}</p>` : ''}
${d.results
  ? html`<section aria-labelledby="results-h"><h2 id="results-h">Shows (${d.results.shows.length})</h2>
${d.results.shows.length ? html`<ul class="grid" id="results">${d.results.shows.map(showCard)}</ul>` : html`<p>No show matches. Try its RSS feed address.</p>`}</section>`
  : ''}
${d.trending && d.trending.shows.length
  ? html`<section aria-labelledby="trending-h"><h2 id="trending-h">Trending</h2><ul class="grid">${d.trending.shows.slice(0, 12).map(showCard)}</ul></section>`
  : ''}
${d.charts && d.charts.chart.length
  ? html`<section aria-labelledby="charts-h"><h2 id="charts-h">Top charts</h2><ol class="grid">${d.charts.chart.slice(0, 12).map(
      (e) => html`<li>${artTile(e.title)}<span>${e.rank}. <a href="/?q=${encodeURIComponent(`https://podcasts.apple.com/podcast/id${e.appleId}`)}">${e.title}</a><br><span class="muted">${e.author}</span></span></li>`,
    )}</ol></section>`
  : ''}
${chrome.signedIn
  ? ''
  : html`<section aria-labelledby="key-h" class="card"><h2 id="key-h">Get a key</h2>
<p>One key signs you in here and calls the API; both spend the same credits.</p>
${d.registered ? html`<p class="notice" role="status" id="register-result">${d.registered}</p>` : ''}
<form id="register" method="post" action="/register" class="row"><input type="hidden" name="csrf" value="${d.formCsrf}"><label for="email">Email</label> <input type="email" id="email" name="email" required autocomplete="email"> <button>Send me a link</button></form>
<p>Already have a key? <a href="/signin">Sign in</a>.</p></section>`}
<section aria-labelledby="prices-h"><h2 id="prices-h">Prices</h2>
<table><thead><tr><th scope="col">Action</th><th scope="col">Credits</th></tr></thead><tbody>${priceTable.map((p) => html`<tr><td>${codeSpans(p.action)}</td><td>${codeSpans(p.credits)}</td></tr>`)}</tbody></table>
<h2>Plans</h2>
<table><thead><tr><th scope="col">Plan</th><th scope="col">Credits / month</th><th scope="col">Price / month</th><th scope="col">Requests / day</th></tr></thead><tbody>
${planNames.map((n) => plans[n]).map((p) => html`<tr><td>${p.title}</td><td>${p.monthlyCredits}</td><td>$${p.priceUsd}</td><td>${p.dailyRequests}</td></tr>`)}</tbody></table></section>`,
    chrome,
  );
}
