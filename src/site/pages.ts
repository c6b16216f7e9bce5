import { html, raw } from 'hono/html';
import { planNames, plans, priceTable } from '../core/pricing.js';

function layout(title: string, body: ReturnType<typeof html>) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{background:#f4f4f4;padding:.1rem .3rem;border-radius:3px}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .6rem;text-align:left}
button{font-size:1rem;padding:.5rem 1rem}</style></head>
<body>${body}</body></html>`;
}

export function homePage(siteUrl: string) {
  return layout(
    'Podtext: podcast transcripts',
    html`<h1>Podtext</h1>
<p>Podcast transcripts for developers: find shows, read transcripts as JSON, text, SRT or VTT with word timings, and transcribe the episodes nobody has yet.</p>
<h2>Get a key</h2>
<form id="register"><label>Email <input type="email" name="email" required></label> <button>Send me a link</button></form>
<p id="register-result" role="status"></p>
<h2>Prices</h2>
<table><tr><th>Action</th><th>Credits</th></tr>${priceTable.map((p) => html`<tr><td>${p.action}</td><td>${p.credits}</td></tr>`)}</table>
<table><tr><th>Plan</th><th>Credits / month</th><th>Price</th><th>Requests / day</th></tr>
${planNames.map((n) => plans[n]).map((p) => html`<tr><td>${p.title}</td><td>${p.monthlyCredits}</td><td>$${p.priceUsd}</td><td>${p.dailyRequests}</td></tr>`)}</table>
<p>API: <code>${siteUrl}/api/v1</code> · <a href="/openapi.json">openapi.json</a> · <a href="/llms.txt">llms.txt</a> · <a href="/graphql">GraphQL</a></p>
<script>${raw(`document.getElementById('register').addEventListener('submit', async (e) => {
  e.preventDefault();
  const email = new FormData(e.target).get('email');
  const r = await fetch('/api/v1/register/start', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  const body = await r.json();
  document.getElementById('register-result').textContent = r.ok ? body.message : body.error.message;
});`)}</script>`,
  );
}

/**
 * The emailed link lands here. Following it does not spend the token (mail
 * scanners prefetch links); the button does.
 */
export function confirmPage() {
  return layout(
    'Confirm your Podtext registration',
    html`<h1>Confirm your registration</h1>
<p>Creating an account accepts Podtext's terms and privacy policy.</p>
<button id="confirm">Create my account and show my key</button>
<p id="confirm-result" role="status"></p>
<script>${raw(`document.getElementById('confirm').addEventListener('click', async () => {
  const token = new URLSearchParams(location.search).get('token') || '';
  const r = await fetch('/api/v1/register/confirm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  const body = await r.json();
  const out = document.getElementById('confirm-result');
  if (!r.ok) { out.textContent = body.error.message; return; }
  out.innerHTML = '';
  const p = document.createElement('p');
  p.textContent = (body.created ? 'Your account is ready with ' + body.credits + ' credits. ' : 'Welcome back. ') + 'Your API key:';
  const code = document.createElement('code');
  code.id = 'api-key';
  code.textContent = body.key;
  out.append(p, code);
});`)}</script>`,
  );
}
