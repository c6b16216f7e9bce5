import { html } from 'hono/html';
import type { ShowSummaryRow } from '../../core/catalog/discovery/show-finders.js';

/** A letter tile standing in for artwork: pictures would be fetched from the publisher's server. */
export function artTile(title: string, big = false) {
  return html`<span class="art${big ? ' big' : ''}" aria-hidden="true">${(title.trim()[0] ?? '?').toUpperCase()}</span>`;
}

export function showCard(s: Pick<ShowSummaryRow, 'id' | 'title' | 'author'>) {
  return html`<li>${artTile(s.title)}<span><a href="/shows/${String(s.id)}">${s.title}</a><br><span class="muted">${s.author}</span></span></li>`;
}
