/* mpiscope HTML report: draws every chart from the JSON data block of the page
 * (embedded by scripts/embed_text.py). Text from logs is only ever set with
 * textContent or setAttribute, never parsed as markup.
 *
 * When a chart fails, the page says so at the top and counts the failure in
 * the data-errors attribute of <html>; data-drawn lists the charts drawn. */
'use strict';
(function () {
  const root = document.documentElement;
  const drawn = [];

  function reportError(message) {
    root.setAttribute('data-errors', String(Number(root.getAttribute('data-errors') || 0) + 1));
    const box = document.getElementById('errors');
    if (box) {
      box.hidden = false;
      box.textContent += 'script error: ' + message + '\n';
    }
  }
  window.addEventListener('error', (e) => reportError(e.message));

  const D = JSON.parse(document.getElementById('mpiscope-data').textContent);
  const SVG_NS = 'http://www.w3.org/2000/svg';

  /* ---- units ---- */
  function sig3(v) { return v.toFixed(v < 9.995 ? 2 : v < 99.95 ? 1 : 0); }
  function fmtTime(ns) {
    if (!(ns > 0)) return '0';
    if (ns < 999.5) return ns.toFixed(0) + ' ns';
    if (ns < 999.5e3) return sig3(ns / 1e3) + ' \u00b5s';
    if (ns < 999.5e6) return sig3(ns / 1e6) + ' ms';
    return sig3(ns / 1e9) + ' s';
  }
  /* A time axis label: unit and decimals chosen from the tick step. */
  function fmtTick(ns, step) {
    const u = step < 1e3 ? [1, 'ns'] : step < 1e6 ? [1e3, '\u00b5s'] : step < 1e9 ? [1e6, 'ms'] : [1e9, 's'];
    const dec = Math.max(0, Math.min(6, -Math.floor(Math.log10(step / u[0]) + 1e-9)));
    return (ns / u[0]).toFixed(dec) + ' ' + u[1];
  }
  const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  function fmtBytes(b) {
    if (b < 1023.5) return b.toFixed(0) + ' B';
    let u = 1;
    b /= 1024;
    while (b >= 1023.5 && u + 1 < BYTE_UNITS.length) { b /= 1024; u++; }
    return sig3(b) + ' ' + BYTE_UNITS[u];
  }
  function pow2(k) { return (2 ** (k % 10)) + ' ' + BYTE_UNITS[Math.floor(k / 10)]; }
  /* Seconds, as the wait-state tables give them (the title carries fmtTime). */
  function fmtSec(ns) {
    if (!(ns > 0)) return '0';
    return ns >= 5e5 ? (ns / 1e9).toFixed(3) : '< 0.001';
  }
  function fmtCount(n) { return Number(n).toLocaleString('en-US'); }
  function count(n, one) { return fmtCount(n) + ' ' + one + (n === 1 ? '' : 's'); }
  function fmtPct(p) { return (Number.isFinite(p) ? p : 0).toFixed(1) + ' %'; }

  /* ---- elements ---- */
  function svg(tag, attrs, parent, text) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function widthOf(e) {
    const w = e.getBoundingClientRect().width || (e.parentNode && e.parentNode.clientWidth) || 960;
    return Math.max(480, Math.floor(w));
  }
  /* Fit a label into about `px` pixels of 11 px text. */
  function cut(s, px) {
    const n = Math.max(4, Math.floor(px / 6.2));
    return s.length <= n ? s : s.slice(0, n - 1) + '\u2026';
  }
  function setSize(e, w, h) {
    e.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    e.setAttribute('data-width', String(w));
  }
  /* Ticks 0, step, 2 step, ... covering max. */
  function niceStep(span, n) {
    if (!(span > 0)) return 1;
    const raw = span / n, p = 10 ** Math.floor(Math.log10(raw)), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function ticks(max, n) {
    const step = niceStep(max, n), out = [];
    for (let v = 0; v < max + step * 0.999; v += step) out.push(v);
    return out;
  }

  /* ---- tooltip ---- */
  const tip = document.getElementById('tip');
  function showTip(ev, text) {
    tip.textContent = text;
    tip.hidden = false;
    const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
    const y = ev.clientY + 16 + tip.offsetHeight > window.innerHeight ? ev.clientY - tip.offsetHeight - 8 : ev.clientY + 16;
    tip.style.left = Math.max(4, x) + 'px';
    tip.style.top = Math.max(4, y) + 'px';
  }
  function hideTip() { tip.hidden = true; }
  function withTip(node, text) {
    node.addEventListener('mousemove', (e) => showTip(e, text));
    node.addEventListener('mouseleave', hideTip);
    return node;
  }

  /* ---- colours: one per MPI operation (in order of time), then per other region kind ---- */
  const PALETTE = ['#2f6fb3', '#e07b39', '#3a9d5d', '#c44e52', '#8172b2', '#937860', '#d97fbd', '#5f9ea0',
    '#b8a03a', '#4fa8c9', '#7b8794', '#a05195'];
  const colours = new Map();
  function colourOf(key) {
    if (!colours.has(key)) colours.set(key, PALETTE[colours.size % PALETTE.length]);
    return colours.get(key);
  }
  D.ops.forEach((o) => colourOf(o.op));

  function noData(e, text) {
    setSize(e, 600, 28);
    svg('text', { x: 4, y: 18, class: 'muted' }, e, text);
  }

  /* ---- run header ---- */
  function runFacts() {
    const r = D.run, dl = document.getElementById('run-facts');
    const hosts = r.hosts.length
      ? r.hosts.length + ' (' + r.hosts.slice(0, 4).join(', ') + (r.hosts.length > 4 ? ', \u2026' : '') + ')'
      : '0';
    const facts = [
      ['ranks', String(r.ranks) + (r.world_size > 0 && r.world_size !== r.ranks ? ' of ' + r.world_size : '')],
      ['hosts', hosts],
      ['wall time', fmtTime(r.wall_ns)],
      ['MPI time', fmtPct(r.mpi_pct) + ' (' + fmtTime(r.mpi_ns) + ' of ' + fmtTime(r.app_ns) + ')'],
      ['MPI % / rank', 'min ' + fmtPct(r.mpi_pct_min) + ', mean ' + fmtPct(r.mpi_pct_mean) + ', max ' +
        fmtPct(r.mpi_pct_max)],
      ['events', fmtCount(r.events)],
      ['program', r.program || '-'],
      ['MPI library', r.mpi_library || '-'],
      ['regions', fmtCount(D.regions_total)],
    ];
    // The tool's own waits for room in its buffers (a writer that cannot keep up).
    if (r.tool_stall_ns > 0) {
      const worst = D.ranks.reduce((a, k) => ((k.tool_stall_ns || 0) > (a.tool_stall_ns || 0) ? k : a), D.ranks[0]);
      facts.push(['tool stalls', fmtTime(r.tool_stall_ns) + ' (' + (r.tool_stall_pct || 0).toFixed(2) + ' % of the ranks\' wall time' +
        (worst ? '; most on rank ' + worst.rank + ', ' + fmtTime(worst.tool_stall_ns) : '') + ')' +
        (r.tool_stall_pct > 1 ? ': the tool, not the program' : '')]);
    }
    for (const [k, v] of facts) {
      const d = html('div', {}, dl);
      html('dt', {}, d, k);
      html('dd', { title: v }, d, v);
    }
    drawn.push('run');
  }

  /* ---- MPI % per rank ---- */
  function rankChart() {
    const el = document.getElementById('chart-ranks'), ranks = D.ranks;
    if (!ranks.length) return noData(el, 'no ranks');
    const W = widthOf(el), H = 190, m = { l: 48, r: 70, t: 10, b: 34 };
    const pw = W - m.l - m.r, ph = H - m.t - m.b, n = ranks.length;
    setSize(el, W, H);
    const top = Math.max(1, ...ranks.map((r) => r.mpi_pct || 0));
    const t = ticks(Math.min(100, top), 5), ymax = Math.max(t[t.length - 1], top);
    const Y = (p) => m.t + ph - (p / ymax) * ph;
    for (const v of t) {
      svg('line', { x1: m.l, x2: m.l + pw, y1: Y(v), y2: Y(v), class: 'grid' }, el);
      svg('text', { x: m.l - 6, y: Y(v) + 4, 'text-anchor': 'end', class: 'muted' }, el, v.toFixed(v < 10 && v % 1 ? 1 : 0) + ' %');
    }
    const bw = Math.min(pw / n, 90), x0 = m.l + (pw - bw * n) / 2, every = Math.ceil(n / Math.max(1, pw / 34));
    ranks.forEach((r, i) => {
      const h = ph - (Y(r.mpi_pct || 0) - m.t);
      withTip(svg('rect', { x: x0 + i * bw + bw * 0.1, y: Y(r.mpi_pct || 0), width: Math.max(1, bw * 0.8),
        height: Math.max(0, h), fill: r.truncated ? '#c44e52' : '#2f6fb3' }, el),
      'rank ' + r.rank + ' (' + r.host + ')\nMPI ' + fmtPct(r.mpi_pct) + ': ' + fmtTime(r.mpi_ns) + ' of ' +
        fmtTime(r.app_ns) + (r.truncated ? '\nlog truncated' : ''));
      if (i % every === 0)
        svg('text', { x: x0 + (i + 0.5) * bw, y: H - m.b + 14, 'text-anchor': 'middle', class: 'muted' }, el, String(r.rank));
    });
    svg('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'axis' }, el);
    svg('text', { x: m.l + pw / 2, y: H - 4, 'text-anchor': 'middle', class: 'muted' }, el, 'rank');
    const ym = Y(D.run.mpi_pct_mean || 0);
    svg('line', { x1: m.l, x2: m.l + pw, y1: ym, y2: ym, class: 'mean' }, el);
    svg('text', { x: m.l + pw + 4, y: ym + 4, class: 'label' }, el, 'mean ' + fmtPct(D.run.mpi_pct_mean));
    drawn.push('ranks');
  }

  /* ---- horizontal bars: rows {label, value, text, tip, colour} ---- */
  function hbars(el, rows) {
    if (!rows.length) return false;
    const W = widthOf(el), rowH = 22, lw = Math.min(300, Math.floor(W * 0.3)), m = { l: lw, r: 260, t: 4, b: 4 };
    const H = m.t + rows.length * rowH + m.b, pw = W - m.l - m.r;
    setSize(el, W, H);
    const max = Math.max(...rows.map((r) => r.value)) || 1;
    rows.forEach((r, i) => {
      const y = m.t + i * rowH;
      const g = withTip(svg('g', {}, el), r.tip);
      svg('text', { x: m.l - 8, y: y + 15, 'text-anchor': 'end', class: 'label' }, g, cut(r.label, m.l - 12));
      const w = Math.max(1, (r.value / max) * pw);
      svg('rect', { x: m.l, y: y + 3, width: w, height: rowH - 6, fill: r.colour || '#2f6fb3', rx: 2 }, g);
      svg('text', { x: m.l + w + 6, y: y + 15, class: 'muted' }, g, r.text);
    });
    return true;
  }

  /* ---- message sizes: grouped bars per size class ---- */
  function sizesChart() {
    const el = document.getElementById('chart-sizes'), S = D.sizes;
    if (!S.length) return noData(el, 'no point-to-point or collective calls of known size');
    const lo = S[0].class, hi = S[S.length - 1].class, by = new Map(S.map((s) => [s.class, s]));
    const classes = [];
    for (let k = lo; k <= hi; k++) classes.push(by.get(k) || { class: k, p2p: 0, coll: 0 });
    const W = widthOf(el), H = 220, m = { l: 64, r: 10, t: 24, b: 40 }, pw = W - m.l - m.r, ph = H - m.t - m.b;
    setSize(el, W, H);
    const top = Math.max(1, ...classes.map((c) => Math.max(c.p2p, c.coll)));
    const t = ticks(top, 5), ymax = Math.max(t[t.length - 1], top), Y = (v) => m.t + ph - (v / ymax) * ph;
    for (const v of t) {
      svg('line', { x1: m.l, x2: m.l + pw, y1: Y(v), y2: Y(v), class: 'grid' }, el);
      svg('text', { x: m.l - 6, y: Y(v) + 4, 'text-anchor': 'end', class: 'muted' }, el, fmtCount(v));
    }
    const cw = Math.min(pw / classes.length, 120), x0 = m.l + (pw - cw * classes.length) / 2;
    const every = Math.ceil(classes.length / Math.max(1, pw / 60));
    const series = [['p2p', 'point-to-point', '#2f6fb3'], ['coll', 'collective', '#e07b39']];
    classes.forEach((c, i) => {
      const range = c.class === 0 ? '0 B' : pow2(c.class - 1) + ' .. < ' + pow2(c.class);
      series.forEach(([key, name, colour], j) => {
        if (!c[key]) return;
        const h = Math.max(2, m.t + ph - Y(c[key]));  /* a few calls next to many stay visible */
        withTip(svg('rect', { x: x0 + i * cw + cw * (0.1 + 0.4 * j), y: m.t + ph - h, width: Math.max(1, cw * 0.4),
          height: h, fill: colour }, el), range + '\n' + name + ': ' + fmtCount(c[key]) + ' calls');
      });
      if (i % every === 0)
        svg('text', { x: x0 + (i + 0.5) * cw, y: H - m.b + 14, 'text-anchor': 'middle', class: 'muted' }, el,
          c.class === 0 ? '0 B' : pow2(c.class - 1));
    });
    svg('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'axis' }, el);
    svg('text', { x: m.l + pw / 2, y: H - 6, 'text-anchor': 'middle', class: 'muted' }, el,
      'message size (each class from the size shown up to twice it)');
    series.forEach(([, name, colour], j) => {
      const x = m.l + pw - 250 + j * 130;
      svg('rect', { x: x, y: 4, width: 10, height: 10, fill: colour }, el);
      svg('text', { x: x + 14, y: 13, class: 'label' }, el, name);
    });
    drawn.push('sizes');
  }

  /* ---- communication matrix ---- */
  function matrixChart() {
    const sec = document.getElementById('sec-matrix'), el = document.getElementById('chart-matrix');
    const note = document.getElementById('matrix-note'), M = D.matrix;
    if (!M) { sec.hidden = true; return; }
    const n = Math.max(1, M.size, ...M.cells.map((c) => Math.max(c[0], c[1]) + 1));
    if (!M.cells.length) {
      note.textContent = 'No point-to-point messages between world ranks.';
      return noData(el, 'no point-to-point messages');
    }
    note.textContent = 'Bytes sent by each world rank (row) to each other (column), point-to-point; ' +
      'darker is more (log scale). Hover for messages and bytes.';
    const W = widthOf(el), cell = Math.max(2, Math.min(40, Math.floor(Math.min(640, W - 200) / n)));
    const m = { l: 56, t: 30 }, side = cell * n, H = m.t + side + 50;
    setSize(el, W, H);
    const max = Math.max(...M.cells.map((c) => c[3])) || 1, lmax = Math.log1p(max);
    const shade = (b) => {
      const t = b > 0 ? 0.12 + 0.88 * (Math.log1p(b) / lmax) : 0;
      const from = [238, 244, 251], to = [8, 48, 107];
      return 'rgb(' + from.map((f, i) => Math.round(f + (to[i] - f) * t)).join(',') + ')';
    };
    svg('rect', { x: m.l, y: m.t, width: side, height: side, fill: '#f7f9fb', stroke: '#d8dde3' }, el);
    for (const c of M.cells) {
      withTip(svg('rect', { x: m.l + c[1] * cell, y: m.t + c[0] * cell, width: cell, height: cell, fill: shade(c[3]) }, el),
        'rank ' + c[0] + ' \u2192 rank ' + c[1] + '\n' + fmtCount(c[2]) + ' messages, ' + fmtBytes(c[3]));
    }
    const every = Math.ceil(14 / cell);
    for (let i = 0; i < n; i += every) {
      svg('text', { x: m.l - 4, y: m.t + (i + 0.5) * cell + 4, 'text-anchor': 'end', class: 'muted' }, el, String(i));
      svg('text', { x: m.l + (i + 0.5) * cell, y: m.t - 6, 'text-anchor': 'middle', class: 'muted' }, el, String(i));
    }
    svg('text', { x: m.l + side / 2, y: 10, 'text-anchor': 'middle', class: 'muted' }, el, 'to rank');
    svg('text', { x: 10, y: m.t + side / 2, 'text-anchor': 'middle', class: 'muted',
      transform: 'rotate(-90 10 ' + (m.t + side / 2) + ')' }, el, 'from rank');
    const defs = svg('defs', {}, el), grad = svg('linearGradient', { id: 'matrix-scale' }, defs);
    svg('stop', { offset: '0', 'stop-color': shade(1) }, grad);
    svg('stop', { offset: '1', 'stop-color': shade(max) }, grad);
    const ly = m.t + side + 16;
    svg('rect', { x: m.l, y: ly, width: Math.max(120, side / 2), height: 10, fill: 'url(#matrix-scale)' }, el);
    svg('text', { x: m.l, y: ly + 24, class: 'muted' }, el, '1 B');
    svg('text', { x: m.l + Math.max(120, side / 2), y: ly + 24, 'text-anchor': 'end', class: 'muted' }, el, fmtBytes(max));
    drawn.push('matrix');
  }

  /* ---- imbalance: per-rank time at the top call sites ---- */
  function imbalanceCharts() {
    const box = document.getElementById('imbalance');
    if (!D.imbalance.length) {
      const e = svg('svg', { class: 'chart', id: 'chart-imb-none' }, box);
      return noData(e, 'no call site was used by more than one rank');
    }
    D.imbalance.forEach((g, k) => {
      const div = html('div', { class: 'imb' }, box);
      html('div', { class: 'title', title: g.full }, div, g.name + '  \u2014  imbalance ' + g.imbalance_text + ' %');
      const el = svg('svg', { class: 'chart', id: 'chart-imb-' + k }, div);
      const W = widthOf(div), H = 84, m = { l: 64, r: 96, t: 6, b: 18 }, pw = W - m.l - m.r, ph = H - m.t - m.b;
      setSize(el, W, H);
      const v = g.totals_ns, n = v.length, top = Math.max(1, ...v);
      const nz = v.filter((x) => x > 0), mean = nz.length ? nz.reduce((a, b) => a + b, 0) / nz.length : 0;
      const Y = (x) => m.t + ph - (x / top) * ph, bw = Math.min(pw / Math.max(1, n), 90), x0 = m.l + (pw - bw * n) / 2;
      const every = Math.ceil(n / Math.max(1, pw / 34));
      svg('text', { x: m.l - 6, y: m.t + 10, 'text-anchor': 'end', class: 'muted' }, el, fmtTime(top));
      svg('text', { x: m.l - 6, y: m.t + ph, 'text-anchor': 'end', class: 'muted' }, el, '0');
      v.forEach((x, i) => {
        const rank = D.ranks[i] ? D.ranks[i].rank : i;
        withTip(svg('rect', { x: x0 + i * bw + bw * 0.1, y: Y(x), width: Math.max(1, bw * 0.8), height: m.t + ph - Y(x),
          fill: x > mean * 1.05 ? '#c44e52' : '#7b9fc9' }, el), 'rank ' + rank + ': ' + fmtTime(x) +
          (mean > 0 ? ' (' + (x >= mean ? '+' : '') + fmtPct((100 * (x - mean)) / mean) + ' of the mean)' : ''));
        if (i % every === 0)
          svg('text', { x: x0 + (i + 0.5) * bw, y: H - 4, 'text-anchor': 'middle', class: 'muted' }, el, String(rank));
      });
      svg('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'axis' }, el);
      svg('line', { x1: m.l, x2: m.l + pw, y1: Y(mean), y2: Y(mean), class: 'mean' }, el);
      svg('text', { x: m.l + pw + 4, y: Y(mean) + 4, class: 'label' }, el, 'mean ' + fmtTime(mean));
    });
    drawn.push('imbalance');
  }

  /* ---- wait states and the critical path (D.waits; patterns in the order of waits.h) ---- */
  const PATTERNS = [['late_sender', 'late sender'], ['late_receiver', 'late receiver'],
    ['wait_at_barrier', 'wait at barrier'], ['wait_at_nxn', 'wait at N x N'], ['late_broadcast', 'late broadcast'],
    ['early_reduce', 'early reduce']];
  const patternWords = (name) => (PATTERNS.find((p) => p[0] === name) || [name, name])[1];
  const NO_TRACE = 'this run was recorded in summary mode (MPISCOPE_MODE=summary), which keeps per-region ' +
    'aggregates, not the calls and messages the analysis matches. Record it in trace mode (the default) to see them.';

  /* A table that does not sort: head cells {label, cls, title}, rows {cls, cells: [{text, cls, title}]}. */
  function plainTable(table, head, rows) {
    clear(table.tHead);
    clear(table.tBodies[0]);
    const tr = html('tr', {}, table.tHead);
    for (const h of head) html('th', { class: h.cls || '', scope: 'col', title: h.title || '' }, tr, h.label);
    for (const r of rows) {
      const row = html('tr', { class: r.cls || '' }, table.tBodies[0]);
      for (const c of r.cells) html('td', { class: c.cls || '', title: c.title || '' }, row, c.text);
    }
  }
  const secCell = (ns) => ({ text: fmtSec(ns), cls: ns > 0 ? '' : 'zero', title: fmtTime(ns) });

  function waitStates() {
    const W = D.waits, note = document.getElementById('waits-note');
    if (!W.available) {
      note.textContent = W.skipped ? 'Wait states left out: ' + W.skipped + ' (a higher --mem-limit gives them).'
        : W.summary_ranks > 0 ? 'Wait states need trace mode: ' + NO_TRACE
        : 'No wait-state analysis: no rank was traced.';
      drawn.push('waits');
      return;
    }
    document.getElementById('waits-body').hidden = false;
    const unmatched = W.unmatched_sends + W.unmatched_recvs + W.unmatched_collectives;
    note.textContent = (W.summary_ranks > 0 ? 'Of the ' + W.traced_ranks + ' traced ranks only (' + W.summary_ranks +
      ' were recorded in summary mode). ' : '') + fmtTime(W.wait_ns) + ' of waiting in ' + fmtCount(W.calls) +
      (W.calls === 1 ? ' call' : ' calls') + (W.mpi_ns > 0 ? ', ' + fmtPct((100 * W.wait_ns) / W.mpi_ns) + ' of MPI time' : '') +
      ': time a rank spent in MPI only because another had not yet sent, received or entered. Matched ' +
      count(W.messages, 'message') + ' and ' + count(W.collectives, 'collective') +
      (unmatched ? '; without a partner: ' + count(W.unmatched_sends, 'send') + ', ' + count(W.unmatched_recvs, 'receive') +
        ', ' + count(W.unmatched_collectives, 'collective call') : '') + '.' +
      (W.old_ranks ? ' The logs of ' + W.old_ranks + ' ranks predate message records: some receives are not matched.' : '') +
      (W.clock_violations === 1 ? ' 1 receive appears to end before its send began, by ' +
        fmtTime(W.clock_violation_max_ns) + ', because clocks differ between ranks; it was adjusted.'
        : W.clock_violations ? ' ' + fmtCount(W.clock_violations) + ' receives appear to end before their send began, ' +
        'by at most ' + fmtTime(W.clock_violation_max_ns) + ', because clocks differ between ranks; they were adjusted.' : '');

    /* pattern x rank */
    const cols = W.columns.map((r) => ({ label: 'rank ' + r }));
    document.getElementById('waits-patterns-note').textContent = (W.others
      ? 'The ' + W.columns.length + ' ranks that waited most, most first; the other ' + W.others_ranks +
        ' ranks summed under \u201cothers\u201d. '
      : 'Every rank. ') + 'Hover a cell for its time in other units.';
    const head = [{ label: 'pattern', cls: 'pattern' }, ...cols];
    if (W.others) head.push({ label: 'others (' + W.others_ranks + ' ranks)' });
    head.push({ label: 'all ranks' });
    const total = W.columns.map(() => 0);
    let totalOthers = 0, totalAll = 0;
    const rows = W.patterns.map((p) => {
      p.ns.forEach((v, i) => { total[i] += v; });
      totalOthers += p.others_ns;
      totalAll += p.total_ns;
      const cells = [{ text: patternWords(p.pattern), cls: 'pattern', title: p.pattern }, ...p.ns.map(secCell)];
      if (W.others) cells.push(secCell(p.others_ns));
      cells.push(secCell(p.total_ns));
      return { cells: cells };
    });
    const cells = [{ text: 'all patterns', cls: 'pattern' }, ...total.map(secCell)];
    if (W.others) cells.push(secCell(totalOthers));
    cells.push(secCell(totalAll));
    rows.push({ cls: 'total', cells: cells });
    plainTable(document.getElementById('waits-patterns'), head, rows);

    /* the rows of most waiting, per call site */
    document.getElementById('waits-sites-note').textContent = !W.sites.length ? 'No rank waited for another.'
      : 'The ' + W.sites.length + ' (pattern, rank, call, call site) rows of most waiting' + (W.rows_total > W.sites.length
        ? ', of ' + fmtCount(W.rows_total) : '') + ' (--waits-csv lists every region). Hover a call site for where it is.';
    plainTable(document.getElementById('waits-sites'), [{ label: 'rank' }, { label: 'call', cls: 'name' },
      { label: 'call site', cls: 'site' }, { label: 'pattern', cls: 'pattern' },
      { label: 'calls' }, { label: 'seconds' }, { label: 'waited for' }],
    W.sites.map((r) => ({ cells: [{ text: String(r.rank) }, { text: r.call, cls: 'name' },
      { text: r.site || '(no call site)', cls: 'site', title: r.site_full + (r.location ? '\n' + r.location : '') },
      { text: patternWords(r.pattern), cls: 'pattern', title: r.pattern }, { text: fmtCount(r.calls) },
      secCell(r.wait_ns), { text: 'rank ' + r.cause + (r.root >= 0 && r.root !== r.cause ? ' (root cause: rank ' +
        r.root + ')' : '') }] })));

    /* the late ranks */
    plainTable(document.getElementById('waits-late'), [{ label: 'rank' }, { label: 'caused (seconds)' },
      { label: 'share of all waiting' }, { label: 'calls that waited' }],
    W.late.map((r) => ({ cells: [{ text: String(r.rank) }, secCell(r.wait_ns),
      { text: fmtPct(W.wait_ns > 0 ? (100 * r.wait_ns) / W.wait_ns : 0) }, { text: fmtCount(r.calls) }] })));
    if (W.late_total > W.late.length)
      document.getElementById('waits-late').parentNode.after(html('p', { class: 'note' }, null, 'The ' + W.late.length +
        ' ranks that caused the most waiting, of ' + fmtCount(W.late_total) + '.'));
    drawn.push('waits');
  }

  /* ---- stacked horizontal bars: rows {label, values, tip}, series [[name, colour], ...] ---- */
  function stackedBars(el, rows, series) {
    const W = widthOf(el), rowH = 22, m = { l: 90, r: 300, t: 22, b: 4 };
    const H = m.t + rows.length * rowH + m.b, pw = W - m.l - m.r;
    setSize(el, W, H);
    series.forEach(([name, colour], j) => {
      svg('rect', { x: m.l + j * 130, y: 4, width: 10, height: 10, fill: colour }, el);
      svg('text', { x: m.l + j * 130 + 14, y: 13, class: 'label' }, el, name);
    });
    const max = Math.max(...rows.map((r) => r.values.reduce((a, b) => a + b, 0))) || 1;
    rows.forEach((r, i) => {
      const y = m.t + i * rowH, g = withTip(svg('g', {}, el), r.tip);
      svg('text', { x: m.l - 8, y: y + 15, 'text-anchor': 'end', class: 'label' }, g, r.label);
      let x = m.l;
      r.values.forEach((v, j) => {
        const w = (v / max) * pw;
        if (w > 0) svg('rect', { x: x, y: y + 3, width: Math.max(1, w), height: rowH - 6, fill: series[j][1] }, g);
        x += w;
      });
      svg('text', { x: x + 6, y: y + 15, class: 'muted' }, g,
        r.values.map((v, j) => series[j][0] + ' ' + fmtTime(v)).join('  \u00b7  '));
    });
  }

  function criticalPath() {
    const W = D.waits, note = document.getElementById('path-note');
    if (!W.available || !W.path) {
      note.textContent = !W.available ? (W.skipped ? 'Critical path left out: ' + W.skipped + '.'
        : W.summary_ranks > 0 ? 'The critical path needs trace mode: ' + NO_TRACE
        : 'No critical path: no rank was traced.') : 'No critical path: the traced ranks have no application time.';
      drawn.push('path');
      return;
    }
    const P = W.path;
    document.getElementById('path-body').hidden = false;
    note.textContent = 'The chain of computation and MPI calls that set the run\u2019s length, walked backward from ' +
      'the last rank to enter MPI_Finalize: where a call waited, the path moves to the rank it waited for. ' +
      'Check \u201ccritical path\u201d on the timeline to see it.';
    const dl = document.getElementById('path-facts');
    for (const [k, v] of [
      ['length', fmtTime(P.length_ns) + (P.wall_ns > 0 ? ' (' + fmtPct((100 * P.length_ns) / P.wall_ns) + ' of the wall time)' : '')],
      ['imbalance', fmtTime(P.imbalance_ns)],
      ['on the path', 'compute ' + fmtTime(P.compute_ns) + ', MPI ' + fmtTime(P.mpi_ns)],
      ['ranks', P.ranks_total + ' of ' + D.run.ranks + ' ranks lie on it'],
    ]) {
      const d = html('div', {}, dl);
      html('dt', {}, d, k);
      html('dd', { title: v }, d, v);
    }
    dl.after(html('p', { class: 'note', id: 'path-imbalance' }, null, 'Imbalance: how much longer the critical path is ' +
      'than the average rank\u2019s busy time (application time less waiting): a perfectly balanced run could end ' +
      fmtTime(P.imbalance_ns) + ' sooner.'));
    const el = document.getElementById('chart-path');
    if (!P.ranks.length) noData(el, 'the path has no length');
    else
      stackedBars(el, P.ranks.map((r) => ({ label: 'rank ' + r.rank, values: [r.compute_ns, r.mpi_ns],
        tip: 'rank ' + r.rank + ' on the critical path\ncompute ' + fmtTime(r.compute_ns) + ', MPI ' + fmtTime(r.mpi_ns) +
          '\n' + fmtPct((100 * (r.compute_ns + r.mpi_ns)) / (P.length_ns || 1)) + ' of the path' })),
      [['compute', '#3a9d5d'], ['MPI', '#2f6fb3']]);
    if (P.ranks_total > P.ranks.length)
      el.after(html('p', { class: 'note' }, null, 'The ' + P.ranks.length + ' ranks of the most time on the path, of ' +
        P.ranks_total + '.'));
    plainTable(document.getElementById('path-regions'), [{ label: 'call', cls: 'name' }, { label: 'call site', cls: 'site' },
      { label: 'on the path' }, { label: 'share of the path' }],
    P.regions.map((g) => ({ cells: [{ text: g.call, cls: 'name' },
      { text: g.site, cls: 'site', title: g.site_full + (g.location ? '\n' + g.location : '') },
      { text: fmtTime(g.on_path_ns) }, { text: fmtPct((100 * g.on_path_ns) / (P.length_ns || 1)) }] })));
    if (P.regions_total > P.regions.length)
      document.getElementById('path-regions').parentNode.after(html('p', { class: 'note' }, null, 'The ' +
        P.regions.length + ' calls and call sites of the most time on the path, of ' + fmtCount(P.regions_total) + '.'));
    drawn.push('path');
  }

  /* ---- timeline ---- */
  function timeline() {
    const T = D.timeline, el = document.getElementById('chart-timeline'), lanes = T.lanes, names = T.names;
    const note = document.getElementById('timeline-note');
    const showWaits = document.getElementById('tl-waits'), showPath = document.getElementById('tl-path');
    showWaits.disabled = showPath.disabled = true;
    if (T.summary) {
      note.textContent = 'The run was recorded in summary mode (MPISCOPE_MODE=summary): per-region aggregates, no timeline.';
      return noData(el, 'no timeline in summary mode');
    }
    const kept = lanes.reduce((a, l) => a + l.ev.length / 3, 0), seen = lanes.reduce((a, l) => a + l.events, 0);
    note.textContent = 'Calls per rank on a common clock, from the run\u2019s first call. Each rank shows at most its ' +
      fmtCount(T.cap) + ' longest calls: ' + fmtCount(kept) + ' of ' + fmtCount(seen) + ' calls shown' +
      (T.ranks_total > lanes.length ? ', first ' + lanes.length + ' of ' + T.ranks_total + ' ranks' : '') + '.';
    if (!lanes.length || !kept) return noData(el, 'no calls recorded');
    const keyOf = (i) => names[i][1] || names[i][0].split(/[ :]/)[0] || names[i][0];
    let t0 = Infinity, t1 = -Infinity;
    for (const l of lanes) {
      t0 = Math.min(t0, l.begin);
      t1 = Math.max(t1, l.end);
      for (let i = 0; i < l.ev.length; i += 3) {
        t0 = Math.min(t0, l.ev[i]);
        t1 = Math.max(t1, l.ev[i] + l.ev[i + 1]);
      }
    }
    if (!(t1 > t0)) t1 = t0 + 1;
    const W = widthOf(el), laneH = lanes.length > 48 ? 8 : lanes.length > 16 ? 14 : 24;
    const m = { l: 70, r: 14, t: 8, b: 30 }, pw = W - m.l - m.r, H = m.t + lanes.length * laneH + m.b;
    setSize(el, W, H);
    const view = { a: t0, b: t1 }, minSpan = 50;
    const X = (t) => m.l + ((t - view.a) / (view.b - view.a)) * pw;
    const timeAt = (x) => view.a + ((x - m.l) / pw) * (view.b - view.a);
    const used = new Map();
    for (const l of lanes) for (let i = 2; i < l.ev.length; i += 3) used.set(keyOf(l.ev[i]), true);
    /* The wait states and the critical path over the calls (D.waits.marks):
     * waiting calls [rank, start, duration, pattern, cause], path stretches
     * [rank, start, duration, is_mpi, name]. */
    const WM = D.waits.available ? D.waits.marks : null, laneOf = new Map(lanes.map((l, k) => [l.rank, k]));
    const waitsOf = lanes.map(() => []), segsOf = lanes.map(() => []);
    if (WM) {
      for (let i = 0; i < WM.inst.length; i += 5) if (laneOf.has(WM.inst[i])) waitsOf[laneOf.get(WM.inst[i])].push(i);
      for (let i = 0; i < WM.segs.length; i += 5) if (laneOf.has(WM.segs[i])) segsOf[laneOf.get(WM.segs[i])].push(i);
      if (WM.inst_total > WM.inst.length)
        note.textContent += ' The ' + fmtCount(WM.inst.length) + ' longest waiting calls are marked, of ' + fmtCount(WM.inst_total) + '.';
      if (WM.segs_total > WM.segs.length / 5)
        note.textContent += ' The critical path shows its ' + fmtCount(WM.segs.length / 5) + ' longest stretches, of ' +
          fmtCount(WM.segs_total) + '.';
    }
    showWaits.disabled = !WM || !WM.inst.length;
    showPath.disabled = !WM || !WM.segs.length;
    const segText = (i) => {
      const nm = WM.names[WM.segs[i + 4]];
      return 'critical path: ' + (WM.segs[i + 3] ? nm[1] : 'outside MPI' + (nm[0] !== '(compute)' ? ', in ' + nm[1] : '')) +
        ', ' + fmtTime(WM.segs[i + 2]);
    };
    const pathKey = (n) => WM.names[n][2] || WM.names[n][0].split(/[ :]/)[0] || WM.names[n][0];
    /* Marks of one lane as rectangles, those narrower than a pixel in a pixel already drawn left out;
     * more(i) adds attributes of mark i. */
    function marks(list, flat, y, h, attrs, more) {
      let drawnTo = -Infinity;
      for (const i of list) {
        const s = flat[i + 1], e = s + flat[i + 2];
        if (e < view.a || s > view.b) continue;
        const x0 = Math.max(X(s), m.l), x1 = Math.min(X(e), m.l + pw);
        if (x1 - x0 < 1 && x0 < drawnTo) continue;
        drawnTo = Math.max(drawnTo, x0 + Math.max(1, x1 - x0));
        svg('rect', Object.assign({ x: x0, y: y, width: Math.max(1, x1 - x0), height: h }, attrs, more ? more(i) : {}), el);
      }
    }

    function render() {
      clear(el);
      const hatch = svg('pattern', { id: 'tl-hatch', patternUnits: 'userSpaceOnUse', width: 6, height: 6,
        patternTransform: 'rotate(45)' }, svg('defs', {}, el));
      svg('rect', { width: 6, height: 6, fill: 'rgba(255,255,255,0.5)' }, hatch);
      svg('line', { x1: 1, y1: 0, x2: 1, y2: 6, stroke: '#b3261e', 'stroke-width': 2.2 }, hatch);
      const dim = showPath.checked && !showPath.disabled ? { 'fill-opacity': 0.3 } : {};
      const span = view.b - view.a, step = niceStep(span, Math.max(2, Math.floor(pw / 110)));
      for (let t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {
        const x = X(t);
        svg('line', { x1: x, x2: x, y1: m.t, y2: H - m.b, class: 'grid' }, el);
        svg('text', { x: x, y: H - m.b + 16, 'text-anchor': 'middle', class: 'muted' }, el, fmtTick(t, step));
      }
      lanes.forEach((l, k) => {
        const y = m.t + k * laneH;
        if (laneH >= 8 && (k % Math.ceil(12 / laneH) === 0))
          svg('text', { x: m.l - 8, y: y + laneH / 2 + 4, 'text-anchor': 'end', class: 'muted' }, el, 'rank ' + l.rank);
        const b0 = Math.max(X(l.begin), m.l), b1 = Math.min(X(l.end), m.l + pw);
        if (b1 > b0) svg('rect', { x: b0, y: y + 1, width: b1 - b0, height: laneH - 2, fill: '#eef1f4' }, el);
        /* Calls narrower than a pixel that start in a pixel already drawn are
         * left out: a lane draws about as many shapes as it has pixels. */
        let drawnTo = -Infinity;
        for (let i = 0; i < l.ev.length; i += 3) {
          const s = l.ev[i], e = s + l.ev[i + 1];
          if (e < view.a || s > view.b) continue;
          const x0 = Math.max(X(s), m.l), x1 = Math.min(X(e), m.l + pw);
          if (x1 - x0 < 1 && x0 < drawnTo) continue;
          drawnTo = Math.max(drawnTo, x0 + Math.max(1, x1 - x0));
          svg('rect', Object.assign({ x: x0, y: y + 2, width: Math.max(1, x1 - x0), height: laneH - 4,
            fill: colourOf(keyOf(l.ev[i + 2])) }, dim), el);
        }
        /* The path in full colour over the dimmed calls, outlined; outside MPI outlined only. */
        if (dim['fill-opacity'])
          marks(segsOf[k], WM.segs, y + 1, laneH - 2, { stroke: '#111', 'stroke-width': 1.5, class: 'path-seg' },
            (i) => ({ fill: WM.segs[i + 3] ? colourOf(pathKey(WM.segs[i + 4])) : 'none' }));
        if (showWaits.checked && !showWaits.disabled)
          marks(waitsOf[k], WM.inst, y + 2, laneH - 4, { fill: 'url(#tl-hatch)', stroke: '#b3261e', 'stroke-width': 0.75,
            class: 'wait-mark' });
      });
      /* Where the path moves to the rank waited for: a link between the lanes. */
      for (let i = 5; dim['fill-opacity'] && i < WM.segs.length; i += 5) {
        const a = laneOf.get(WM.segs[i - 5]), b = laneOf.get(WM.segs[i]), t = WM.segs[i + 1];
        if (a === undefined || b === undefined || a === b || WM.segs[i - 4] + WM.segs[i - 3] !== t || t < view.a || t > view.b)
          continue;
        svg('line', { x1: X(t), x2: X(t), y1: m.t + (a + 0.5) * laneH, y2: m.t + (b + 0.5) * laneH, stroke: '#111',
          'stroke-width': 1.5, class: 'path-link' }, el);
      }
      svg('line', { x1: m.l, x2: m.l + pw, y1: H - m.b, y2: H - m.b, class: 'axis' }, el);
    }
    function clamp() {
      const span = Math.min(t1 - t0, Math.max(minSpan, view.b - view.a));
      view.a = Math.min(Math.max(view.a, t0), t1 - span);
      view.b = view.a + span;
    }
    function zoom(f, at) {
      const span = (view.b - view.a) * f;
      view.a = at - (at - view.a) * f;
      view.b = view.a + span;
      clamp();
      render();
    }
    let pending = false;
    function later() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; render(); });
    }
    const toX = (e) => { const r = el.getBoundingClientRect(); return ((e.clientX - r.left) * W) / r.width; };
    const toY = (e) => { const r = el.getBoundingClientRect(); return ((e.clientY - r.top) * H) / r.height; };
    el.addEventListener('wheel', (e) => {
      e.preventDefault();
      zoom(e.deltaY < 0 ? 0.8 : 1.25, timeAt(Math.min(Math.max(toX(e), m.l), m.l + pw)));
    }, { passive: false });
    let drag = null;
    el.addEventListener('mousedown', (e) => { drag = { x: toX(e), a: view.a, b: view.b }; el.classList.add('dragging'); hideTip(); });
    window.addEventListener('mouseup', () => { drag = null; el.classList.remove('dragging'); });
    el.addEventListener('mousemove', (e) => {
      if (drag) {
        const dt = ((drag.x - toX(e)) / pw) * (drag.b - drag.a);
        view.a = drag.a + dt;
        view.b = drag.b + dt;
        clamp();
        later();
        return;
      }
      const k = Math.floor((toY(e) - m.t) / laneH), x = toX(e);
      if (k < 0 || k >= lanes.length || x < m.l) return hideTip();
      const l = lanes[k], slack = ((view.b - view.a) / pw) * 2, t = timeAt(x);
      const near = (flat, i) => flat[i] - slack <= t && t <= flat[i] + flat[i + 1] + slack;
      let best = -1;
      for (let i = 0; i < l.ev.length; i += 3)
        if (near(l.ev, i) && (best < 0 || l.ev[i + 1] > l.ev[best + 1])) best = i;
      const lines = ['rank ' + l.rank];
      if (best >= 0)
        lines.push(names[l.ev[best + 2]][0], 'start ' + fmtTime(l.ev[best]) + ', duration ' + fmtTime(l.ev[best + 1]));
      const wait = showWaits.checked && !showWaits.disabled ? waitsOf[k].find((i) => near(WM.inst, i + 1)) : undefined;
      if (wait !== undefined)
        lines.push(PATTERNS[WM.inst[wait + 3]][1] + ': waited ' + fmtTime(WM.inst[wait + 2]) + ' for rank ' + WM.inst[wait + 4]);
      const seg = showPath.checked && !showPath.disabled ? segsOf[k].find((i) => near(WM.segs, i + 1)) : undefined;
      if (seg !== undefined) lines.push(segText(seg));
      if (lines.length < 2) return hideTip();
      showTip(e, lines.join('\n'));
    });
    showWaits.addEventListener('change', render);
    showPath.addEventListener('change', render);
    el.addEventListener('mouseleave', hideTip);
    document.getElementById('tl-in').addEventListener('click', () => zoom(0.5, (view.a + view.b) / 2));
    document.getElementById('tl-out').addEventListener('click', () => zoom(2, (view.a + view.b) / 2));
    document.getElementById('tl-reset').addEventListener('click', () => { view.a = t0; view.b = t1; render(); });
    render();
    const legend = document.getElementById('timeline-legend');
    for (const key of colours.keys()) /* every key drawn has its colour by now */
      if (used.has(key)) html('span', {}, legend, key === 'mpiscope' ? 'the tool (its sections below)' : key)
        .style.setProperty('--c', colourOf(key));
    if (!showWaits.disabled) html('span', { class: 'wait' }, legend, 'waiting (wait state)');
    if (!showPath.disabled) html('span', { class: 'path' }, legend, 'critical path');
    drawn.push('timeline');
  }

  /* ---- top regions table ---- */
  function regionTable() {
    const table = document.getElementById('regions'), rows = D.regions.slice();
    const site = (r) => !r.site ? '' : r.site.label + (r.site.sites > 1 ? '  (+' + (r.site.sites - 1) + ')' : '');
    const cols = [
      { label: 'region', cls: 'name', val: (r) => r.short, text: (r) => r.short, title: (r) => r.name },
      { label: 'calls', val: (r) => r.calls, text: (r) => fmtCount(r.calls) },
      { label: 'ranks', val: (r) => r.ranks, text: (r) => String(r.ranks) },
      { label: 'total', val: (r) => r.total_ns, text: (r) => fmtTime(r.total_ns) },
      { label: 'mean', val: (r) => r.mean_ns, text: (r) => fmtTime(r.mean_ns) },
      { label: 'p95', val: (r) => r.p95_ns, text: (r) => fmtTime(r.p95_ns) },
      { label: 'max', val: (r) => r.max_ns, text: (r) => fmtTime(r.max_ns) },
      { label: 'imbalance', val: (r) => r.imbalance_pct, text: (r) => fmtPct(r.imbalance_pct) },
      { label: 'call site', cls: 'site', val: site, text: site,
        title: (r) => r.site ? r.site.location + (r.site.sites > 1 ? '\n' + r.site.sites + ' call sites' : '') : '' },
    ];
    const head = html('tr', {}, table.tHead), body = table.tBodies[0];
    const state = { col: 3, asc: false };
    const ths = cols.map((c, i) => {
      const th = html('th', { class: c.cls || '', scope: 'col' }, head, c.label);
      th.addEventListener('click', () => {
        state.asc = state.col === i ? !state.asc : !!c.cls;
        state.col = i;
        fill();
      });
      return th;
    });
    function fill() {
      const c = cols[state.col], dir = state.asc ? 1 : -1;
      rows.sort((x, y) => {
        const a = c.val(x), b = c.val(y);
        const d = typeof a === 'string' ? a.localeCompare(b) : (a > b) - (a < b);
        return d * dir || (y.total_ns - x.total_ns);
      });
      ths.forEach((th, i) => { th.classList.toggle('sorted', i === state.col); th.classList.toggle('asc', state.asc); });
      clear(body);
      for (const r of rows) {
        const tr = html('tr', {}, body);
        for (const col of cols) html('td', { class: col.cls || '', title: col.title ? col.title(r) : '' }, tr, col.text(r));
      }
    }
    fill();
    if (D.regions_total > rows.length) {
      const p = html('p', { class: 'note' }, null, 'The ' + rows.length + ' regions of the most time, of ' +
        fmtCount(D.regions_total) + ' (--csv lists every region).');
      table.parentNode.after(p);
    }
    drawn.push('regions');
  }

  /* ---- GPU: only when the run has cuda: regions ---- */
  function gpu() {
    if (!D.gpu.length) return;
    document.getElementById('sec-gpu').hidden = false;
    const rowsOf = (what) => D.gpu.filter((g) => g.what === what || (what === 'kernel' && g.what === 'other'))
      .map((g) => ({ label: g.name, value: g.total_ns, colour: what === 'memcpy' ? '#8172b2' : '#3a9d5d',
        text: fmtTime(g.total_ns) + '  \u00b7  ' + fmtCount(g.calls) + ' calls' + (g.bytes >= 0 ? '  \u00b7  ' + fmtBytes(g.bytes * g.calls) : ''),
        tip: g.name + '\n' + fmtCount(g.calls) + ' calls, ' + fmtTime(g.total_ns) + ', mean ' + fmtTime(g.mean_ns) }));
    const k = document.getElementById('chart-gpu-kernels'), c = document.getElementById('chart-gpu-copies');
    if (!hbars(k, rowsOf('kernel').slice(0, 30))) noData(k, 'no kernels');
    if (!hbars(c, rowsOf('memcpy').slice(0, 30))) noData(c, 'no copies');
    drawn.push('gpu');
  }

  /* ---- roofline: only when the run has LIKWID roofline points ---- */
  function roofline() {
    const R = D.roofline;
    if (!R || !R.points.length) return;
    document.getElementById('sec-roofline').hidden = false;
    const el = document.getElementById('chart-roofline');
    const ceil = (v, emp, unit) => sig3(v) + ' ' + unit + (emp ? ' (empirical: the largest observed)' : '');
    document.getElementById('roofline-note').textContent = 'Attainable GFLOP/s over arithmetic intensity ' +
      '(FLOP per byte), log-log; one point per region and rank, rates summed over its threads. Ceilings: ' +
      ceil(R.peak_gflops, R.gflops_empirical, 'GFLOP/s') + ', ' + ceil(R.peak_gbs, R.gbs_empirical, 'GB/s') + '.' +
      (R.total > R.points.length ? ' The first ' + fmtCount(R.points.length) + ' of ' + fmtCount(R.total) + ' points.' : '') +
      (R.rejected ? ' ' + fmtCount(R.rejected) + ' left out (a rate not measured, not finite or not positive).' : '');
    const W = widthOf(el), H = 320, m = { l: 64, r: 170, t: 14, b: 40 }, pw = W - m.l - m.r, ph = H - m.t - m.b;
    setSize(el, W, H);
    const ridge = R.peak_gflops / R.peak_gbs, P = R.points;
    const lx0 = Math.floor(Math.log10(Math.min(ridge, ...P.map((p) => p.ai))) - 0.5);
    const lx1 = Math.ceil(Math.log10(Math.max(ridge, ...P.map((p) => p.ai))) + 0.5);
    const ly1 = Math.ceil(Math.log10(R.peak_gflops) + 0.3);
    const ly0 = Math.min(ly1 - 1, Math.floor(Math.log10(Math.min(...P.map((p) => p.gflops), R.peak_gbs * 10 ** lx0))));
    const X = (ai) => m.l + ((Math.log10(ai) - lx0) / (lx1 - lx0)) * pw;
    const Y = (g) => m.t + ph - ((Math.log10(g) - ly0) / (ly1 - ly0)) * ph;
    for (let e = lx0; e <= lx1; e++) {
      svg('line', { x1: X(10 ** e), x2: X(10 ** e), y1: m.t, y2: m.t + ph, class: 'grid' }, el);
      svg('text', { x: X(10 ** e), y: H - m.b + 14, 'text-anchor': 'middle', class: 'muted' }, el, String(10 ** e));
    }
    for (let e = ly0; e <= ly1; e++) {
      svg('line', { x1: m.l, x2: m.l + pw, y1: Y(10 ** e), y2: Y(10 ** e), class: 'grid' }, el);
      svg('text', { x: m.l - 6, y: Y(10 ** e) + 4, 'text-anchor': 'end', class: 'muted' }, el, String(10 ** e));
    }
    const a0 = 10 ** lx0, a1 = 10 ** lx1, rx = Math.min(Math.max(ridge, a0), a1);
    svg('polyline', { points: [[X(a0), Y(R.peak_gbs * a0)], [X(rx), Y(Math.min(R.peak_gflops, R.peak_gbs * rx))],
      [X(a1), Y(R.peak_gflops)]].map((q) => q.join(',')).join(' '), fill: 'none', stroke: '#444', 'stroke-width': 2 }, el);
    svg('text', { x: m.l + pw - 4, y: Y(R.peak_gflops) - 6, 'text-anchor': 'end', class: 'label' }, el,
      sig3(R.peak_gflops) + ' GFLOP/s' + (R.gflops_empirical ? ' (empirical)' : ''));
    svg('text', { x: X(a0) + 4, y: Y(R.peak_gbs * a0) - 6, class: 'label' }, el,
      sig3(R.peak_gbs) + ' GB/s' + (R.gbs_empirical ? ' (empirical)' : ''));
    for (const p of P) {
      withTip(svg('circle', { cx: X(p.ai), cy: Y(p.gflops), r: 5, fill: colourOf(p.region), 'fill-opacity': 0.8 }, el),
        p.region + ', rank ' + p.rank + '\n' + sig3(p.gflops) + ' GFLOP/s, ' + sig3(p.gbs) + ' GB/s, ' +
        p.ai.toPrecision(3) + ' FLOP/byte\nruntime ' + fmtTime(p.runtime_s * 1e9) + '\n' + p.flops_metric + ', ' +
        p.bandwidth_metric);
    }
    const regions = [...new Set(P.map((p) => p.region))];
    regions.slice(0, 12).forEach((name, i) => {
      const y = m.t + 34 + i * 18;
      svg('circle', { cx: m.l + pw + 10, cy: y - 4, r: 5, fill: colourOf(name) }, el);
      svg('text', { x: m.l + pw + 20, y: y, class: 'label' }, el, cut(name, m.r - 24));
    });
    if (regions.length > 12)
      svg('text', { x: m.l + pw + 20, y: m.t + 34 + 12 * 18, class: 'muted' }, el, '+' + (regions.length - 12) + ' more');
    svg('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'axis' }, el);
    svg('text', { x: m.l + pw / 2, y: H - 6, 'text-anchor': 'middle', class: 'muted' }, el, 'arithmetic intensity (FLOP/byte)');
    svg('text', { x: 12, y: m.t + ph / 2, 'text-anchor': 'middle', class: 'muted',
      transform: 'rotate(-90 12 ' + (m.t + ph / 2) + ')' }, el, 'GFLOP/s');
    drawn.push('roofline');
  }

  function warnings() {
    if (!D.warnings.length) return;
    document.getElementById('sec-warnings').hidden = false;
    const ul = document.getElementById('warning-list');
    for (const w of D.warnings.slice(0, 200)) html('li', {}, ul, w);
  }

  const [sitesTable, functionsTable, toolSection] = mpiscopeSites(D, { html, fmtTime, fmtPct, fmtCount, drawn });
  for (const draw of [runFacts, sitesTable, functionsTable, imbalanceCharts, rankChart, regionTable, sizesChart,
    matrixChart, timeline, waitStates, criticalPath, roofline, gpu, toolSection, warnings]) {
    try {
      draw();
    } catch (e) {
      reportError(draw.name + ': ' + (e && e.message ? e.message : String(e)));
    }
  }
  root.setAttribute('data-drawn', drawn.join(' '));
})();
