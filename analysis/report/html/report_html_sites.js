/* mpiscope HTML report: where MPI time goes, coarse to fine (D.sites,
 * report_html_sites.c): MPI time by call site, each site opening onto its
 * message regions; MPI time by function; start-up and shutdown apart; and
 * the tool's own regions (D.tool) in a section of their own. The numbers
 * and their texts come from the merge (the text report's rounding); this
 * file only lays them out. Embedded before report_html.js, which calls
 * mpiscopeSites(D, U) with its helpers U. */
'use strict';
function mpiscopeSites(D, U) {
  const S = D.sites;
  const NUMBERS = [
    { label: '% MPI', key: 'mpi', title: 'share of the MPI time (the note above the table)' },
    { label: '% app', key: 'app', title: 'share of the application time (the note above the table)' },
    { label: 'total', key: 'total', title: 'time in these calls, all ranks' },
    { label: 'calls', key: 'calls', title: 'calls, all ranks' },
    { label: 'ranks', key: null, title: 'ranks that made these calls' },
    { label: 'imbal %', key: 'imbalance', title: 'the busiest rank\u2019s time over the mean rank\u2019s, less 1' },
    { label: 'wait %', key: 'waiting', title: 'of this time, waiting for other ranks (wait states)' },
  ];
  const numberCells = (tr, r) => {
    for (const n of NUMBERS) U.html('td', { class: 'num ' + (n.key || 'ranks') }, tr, n.key ? r.text[n.key] : String(r.ranks));
  };
  /* A bar of the row's share of the MPI time behind its first cell. */
  const barOf = (r) => 'linear-gradient(90deg, var(--bar) ' + Math.min(100, Math.max(0, r.mpi_pct)).toFixed(2) +
    '%, transparent 0)';
  const head = (table, cols) => {
    const tr = U.html('tr', {}, table.tHead);
    for (const c of cols) U.html('th', { class: c.cls || '', scope: 'col', title: c.title || '' }, tr, c.label);
  };

  function sitesTable() {
    const table = document.getElementById('sites'), body = table.tBodies[0];
    const note = document.getElementById('sites-note');
    note.textContent = '% MPI: share of the MPI time, ' + S.mpi_text + ' (the MPI calls between MPI_Init and ' +
      'MPI_Finalize); % app: share of the application time, ' + S.app_text + ' (MPI_Init to MPI_Finalize); both ' +
      'summed over ranks. Start-up and shutdown are apart, below. imbal %: the busiest rank\u2019s time at the site ' +
      'over the mean rank\u2019s, less 1; wait %: of the site\u2019s time, waiting for other ranks' +
      (S.has_wait ? ' (wait states below)' : ' (not known: no wait-state analysis)') + '. Click a site for its ' +
      'message regions.';
    const top = S.rows[0];
    document.getElementById('sites-lead').textContent = !top ? 'No MPI calls between MPI_Init and MPI_Finalize.'
      : 'Most MPI time: ' + top.call + ' at ' + top.label + ', ' + top.text.mpi + ' % of the MPI time' +
        (S.has_wait ? ', ' + top.text.waiting + ' % of it waiting for other ranks' : '') + '.';
    head(table, [{ label: '', cls: 'toggle' }, ...NUMBERS, { label: 'call', cls: 'name' }, { label: 'call site', cls: 'site' }]);
    if (!S.rows.length) {
      const tr = U.html('tr', {}, body);
      U.html('td', { colspan: String(NUMBERS.length + 3), class: 'muted' }, tr, 'no MPI calls between MPI_Init and MPI_Finalize');
    }
    S.rows.forEach((r, i) => {
      const tr = U.html('tr', { class: 'site-row' + (i === 0 ? ' top' : ''), tabindex: '0', 'aria-expanded': 'false' }, body);
      const toggle = U.html('td', { class: 'toggle' }, tr, r.regions.length ? '\u25b8' : '');
      numberCells(tr, r);
      tr.cells[1].style.backgroundImage = barOf(r);
      U.html('td', { class: 'name call' }, tr, r.call);
      U.html('td', { class: 'site', title: r.label_full + (r.location ? '\n' + r.location : '') +
        (r.object ? '\n' + r.object : '') }, tr, r.label);
      const subs = r.regions.map((g) => {
        const sub = U.html('tr', { class: 'region-row', hidden: '' }, body);
        U.html('td', { class: 'toggle' }, sub, '');
        U.html('td', { class: 'num' }, sub, g.text.mpi);
        U.html('td', { class: 'num' }, sub, g.text.app);
        U.html('td', { class: 'num' }, sub, g.text.total);
        U.html('td', { class: 'num' }, sub, g.text.calls);
        U.html('td', { class: 'num' }, sub, String(g.ranks));
        U.html('td', { colspan: '2' }, sub, '');
        U.html('td', { class: 'region', colspan: '2', title: g.name }, sub, g.short);
        return sub;
      });
      if (r.regions_total > r.regions.length) {
        const more = U.html('tr', { class: 'region-row', hidden: '' }, body);
        U.html('td', { colspan: String(NUMBERS.length + 3), class: 'note' }, more, '\u2026 ' +
          U.fmtCount(r.regions_total - r.regions.length) + ' more regions at this site (--csv lists every region)');
        subs.push(more);
      }
      const flip = () => {
        if (!subs.length) return;
        const open = tr.getAttribute('aria-expanded') !== 'true';
        tr.setAttribute('aria-expanded', String(open));
        toggle.textContent = open ? '\u25be' : '\u25b8';
        for (const s of subs) s.hidden = !open;
      };
      tr.addEventListener('click', flip);
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); flip(); } });
      if (subs.length && !body.querySelector('tr[aria-expanded="true"]')) flip();  /* the first site with regions, open */
    });
    if (S.total > S.rows.length)
      table.parentNode.after(U.html('p', { class: 'note' }, null, 'The ' + S.rows.length + ' sites of the most time, of ' +
        U.fmtCount(S.total) + ' (--sites-csv lists every site).'));
    U.drawn.push('sites');
  }

  function functionsTable() {
    const table = document.getElementById('functions'), body = table.tBodies[0];
    head(table, [...NUMBERS, { label: 'bytes', title: 'bytes of the calls whose size is known' },
      { label: 'function', cls: 'name' }]);
    for (const r of S.functions) {
      const tr = U.html('tr', { class: 'function-row' }, body);
      numberCells(tr, r);
      tr.cells[0].style.backgroundImage = barOf(r);
      U.html('td', { class: 'num' }, tr, r.text.bytes);
      U.html('td', { class: 'name call' }, tr, r.call);
    }
    const L = S.lifecycle, life = document.getElementById('lifecycle');
    life.textContent = !L.functions.length ? 'Start-up and shutdown: no MPI_Init or MPI_Finalize recorded.'
      : 'Start-up and shutdown: ' + L.total_text + ', all ranks (outside the application and MPI time above): ' +
        L.functions.map((f) => f.call + ' ' + f.text.total + ' (' + f.text.calls + (f.calls === 1 ? ' call)' : ' calls)'))
          .join(', ') + '.';
    U.drawn.push('functions');
  }

  /* The tool's own regions: the time the tool took from the program. */
  function toolSection() {
    const T = D.tool;
    if (!T.length) return;
    document.getElementById('sec-tool').hidden = false;
    const table = document.getElementById('tool');
    head(table, [{ label: 'region', cls: 'name' }, { label: 'calls' }, { label: 'ranks' }, { label: 'total' },
      { label: 'longest' }]);
    for (const g of T) {
      const tr = U.html('tr', {}, table.tBodies[0]);
      U.html('td', { class: 'name', title: g.name }, tr, g.name);
      U.html('td', {}, tr, U.fmtCount(g.calls));
      U.html('td', {}, tr, String(g.ranks));
      U.html('td', {}, tr, U.fmtTime(g.total_ns));
      U.html('td', {}, tr, U.fmtTime(g.max_ns));
    }
    U.drawn.push('tool');
  }

  return [sitesTable, functionsTable, toolSection];
}
