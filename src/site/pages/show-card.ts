import { html } from 'hono/html';
import type { ShowSummaryRow } from '../../core/catalog/discovery/show-finders.js';
import { artworkPath } from '../artwork-route.js';

/** A letter tile for a show or chart entry without artwork Podtext can serve. */
export function artTile(title: string, big = false) {
  return html`<span class="art${big ? ' big' : ''}" aria-hidden="true">${(title.trim()[0] ?? '?').toUpperCase()}</span>`;
}

/**
 * A show's artwork, loaded from this site (which fetches it from the
 * publisher once): the browser never contacts the publisher. Without an
 * artwork address there is nothing to load, so the letter tile is drawn here.
 */
export function showArt(s: Pick<ShowSummaryRow, 'id' | 'title' | 'artwork'>, big = false) {
  if (!s.artwork.trim()) return artTile(s.title, big);
  const size = big ? 144 : 52;
  return html`<img class="art${big ? ' big' : ''}" src="${artworkPath(s.id)}" alt="Artwork of ${s.title}" width="${size}" height="${size}"${big ? '' : html` loading="lazy"`} decoding="async">`;
}

export function showCard(s: Pick<ShowSummaryRow, 'id' | 'title' | 'author' | 'artwork'>) {
  return html`<li>${showArt(s)}<span><a href="/shows/${String(s.id)}">${s.title}</a><br><span class="muted">${s.author}</span></span></li>`;
}
