/**
 * The account page's script, served at /assets/account.js: job rows follow
 * their jobs live over server-sent events (queued → processing → done) without
 * a reload, and the balance with them (charged, then refunded for what failed).
 */
export const accountJs = `(() => {
'use strict';
const table = document.querySelector('#jobs tbody');
const live = document.getElementById('jobs-live');
if (!table || !window.EventSource) return;
const events = new EventSource('/account/jobs/events');
events.addEventListener('job', (e) => {
  const job = JSON.parse(e.data);
  const credits = document.getElementById('credits');
  if (credits && typeof job.credits === 'number') { credits.textContent = String(job.credits); credits.dataset.credits = String(job.credits); }
  let row = table.querySelector('tr[data-job-id="' + job.id + '"]');
  if (!row) {
    row = document.createElement('tr');
    row.dataset.jobId = job.id;
    row.innerHTML = '<td><code></code></td><td></td><td><span class="status"></span> <span class="progress"></span></td><td></td>';
    row.querySelector('code').textContent = job.id.slice(0, 8);
    row.children[1].textContent = job.titles.join(', ');
    row.children[3].textContent = job.created;
    table.prepend(row);
    const none = document.getElementById('no-jobs');
    if (none) none.remove();
  }
  const status = row.querySelector('.status');
  if (status.dataset.status !== job.status) live.textContent = 'Job ' + job.id.slice(0, 8) + ' is ' + job.status + '.';
  status.textContent = job.status;
  status.dataset.status = job.status;
  status.className = 'status ' + job.status;
  row.querySelector('.progress').textContent = job.done + '/' + job.total;
  if (job.status === 'done') {
    const cell = row.children[1];
    cell.textContent = '';
    job.episodes.forEach((ep, i) => {
      if (i) cell.append(', ');
      if (ep.ready) { const a = document.createElement('a'); a.href = '/t/' + ep.id; a.textContent = ep.title; cell.append(a); }
      else if (ep.failed) { const note = document.createElement('span'); note.className = 'status failed'; note.textContent = ep.failed; cell.append(ep.title + ' ', note); }
      else cell.append(ep.title);
    });
  }
});
})();
`;
