/** The site's one stylesheet, served at /assets/site.css. */
export const siteCss = `
:root{--ink:#1d2330;--muted:#586074;--line:#d9dce3;--bg:#fbfbfd;--card:#fff;--brand:#3b3fd8;--brand-ink:#fff;--hl:#ffe27a;--hit:#c7ecff;--ok:#1d7a3a;--warn:#8a5a00;--focus:#b35900;--focus-on-dark:#f0a500}
*{box-sizing:border-box}
[hidden]{display:none!important}
html:not(.js) .needs-js,html.js .no-js{display:none!important}
html{font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
body{margin:0}
a{color:var(--brand)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:3px}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem 1rem}
.skip:focus{left:1rem;z-index:10}
header.top{background:var(--ink);color:#fff}
header.top nav{max-width:64rem;margin:0 auto;padding:.6rem 1rem;display:flex;gap:1.2rem;align-items:center;flex-wrap:wrap}
header.top a{color:#fff;text-decoration:none}
header.top a:hover{text-decoration:underline}
header.top .brand{font-weight:700;font-size:1.15rem;margin-right:auto}
header.top :focus-visible{outline-color:var(--focus-on-dark)}
header.top form{margin:0}
header.top button{background:none;border:1px solid #fff6;color:#fff;padding:.25rem .7rem;border-radius:4px;font:inherit;cursor:pointer}
main{max-width:64rem;margin:0 auto;padding:1.5rem 1rem 3rem;overflow-wrap:anywhere}
footer{max-width:64rem;margin:0 auto;padding:1rem;color:var(--muted);font-size:.9rem;border-top:1px solid var(--line)}
h1{font-size:1.9rem;line-height:1.2;margin:.2rem 0 1rem}
h2{font-size:1.3rem;margin:2rem 0 .7rem}
.card>h2:first-child{margin-top:.2rem}
.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.2rem;margin:1rem 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.8rem;list-style:none;padding:0;margin:0}
.grid li{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.7rem .9rem;display:flex;gap:.7rem;align-items:center}
.art{width:3.2rem;height:3.2rem;border-radius:6px;flex:none;display:grid;place-items:center;background:#e6e8f5;color:var(--brand);font-weight:700;font-size:1.3rem;object-fit:cover}
.art.big{width:9rem;height:9rem;font-size:3rem}
table{border-collapse:collapse;width:100%;background:var(--card)}
td,th{border-bottom:1px solid var(--line);padding:.45rem .6rem;text-align:left;vertical-align:top}
th{font-weight:600;background:#f1f2f7}
input,select,textarea{max-width:100%;font:inherit;padding:.45rem .6rem;border:1px solid #8a90a0;border-radius:5px;background:#fff;color:var(--ink)}
button,.button{font:inherit;padding:.45rem 1rem;border-radius:5px;border:1px solid var(--brand);background:var(--brand);color:var(--brand-ink);cursor:pointer;text-decoration:none;display:inline-block}
button.quiet,.button.quiet{background:var(--card);color:var(--brand)}
form.inline{display:inline}
.row{display:flex;gap:.6rem;flex-wrap:wrap;align-items:center}
.row.spaced{margin-top:.8rem}
.row.show-head{align-items:flex-start;gap:1.4rem}
.show-facts{flex:1;min-width:min(16rem,100%)}
.search input[type=search]{flex:1;min-width:min(16rem,100%)}
.status{font-weight:600}
.status.ready,.status.done{color:var(--ok)}
.status.processing,.status.queued,.status.running{color:var(--warn)}
.status.failed{color:#b00020}
.notice{border-left:4px solid var(--brand);background:#eef0ff;padding:.7rem 1rem;border-radius:4px}
.error-box{border-left:4px solid #b00020;background:#fdecee;padding:.7rem 1rem;border-radius:4px}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;background:#eef0f5;padding:.1rem .35rem;border-radius:4px}
.key{font-size:1.05rem;word-break:break-all;display:block;padding:.7rem;margin:.5rem 0}
.sr-only{user-select:none;position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.player{position:sticky;top:0;background:var(--bg);padding:.6rem 0;z-index:2;border-bottom:1px solid var(--line)}
.player audio{width:100%}
.turn{display:grid;grid-template-columns:5.5rem 1fr;gap:.2rem 1rem;margin:0 0 1rem}
.turn .when{font-variant-numeric:tabular-nums;background:none;border:1px solid var(--line);color:var(--muted);padding:.1rem .4rem;height:fit-content}
.turn .at{font-variant-numeric:tabular-nums;color:var(--muted);padding:.1rem .4rem}
.turn .who{font-weight:600;margin-right:.4rem}
.w{border-radius:3px}
del.cut{color:#595959}
.js .w{cursor:pointer}
.js .w:hover{background:#eef0ff}
.w[aria-current]{background:var(--hl)}
.w.hit{background:var(--hit)}
.w.hit[aria-current]{background:var(--hl)}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3rem 1rem}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
/* Narrow screens: a wide table scrolls within itself, never the page. */
@media (max-width:48rem){table{display:block;overflow-x:auto}.turn{grid-template-columns:4.5rem minmax(0,1fr)}}
`;
