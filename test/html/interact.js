/* Drives the controls of an mpiscope HTML report as a user would
 * (test/html/run.sh appends it to a copy of a page): the timeline's zoom
 * buttons, wheel, drag and reset, sorting the region table, a tooltip;
 * when the run has wait states, a waiting call's tooltip on the timeline
 * (its text into data-wait-tip) and the critical path shown and hidden.
 * Sets data-interacted on <html> to the steps that did what they should,
 * and data-interact-failed to those that did not. */
'use strict';
(function () {
  const root = document.documentElement, ok = [], bad = [];
  window.addEventListener('error', (e) => root.setAttribute('data-interact-failed', 'exception: ' + e.message));
  const check = (name, cond) => (cond ? ok : bad).push(name);
  const tl = document.getElementById('chart-timeline');
  /* The axis as drawn: tick labels and where they stand (a pan moves the
   * ticks even when it shows the same round labels). */
  const axis = () => Array.from(tl.querySelectorAll('text')).map((t) => `${t.getAttribute('x')}:${t.textContent}`).join('|');
  const box = () => tl.getBoundingClientRect();
  const at = (fx) => ({ clientX: box().left + box().width * fx, clientY: box().top + 12, bubbles: true, cancelable: true });

  /* The marks of the wait states and the critical path. */
  const mark = tl.querySelector('rect.wait-mark');
  if (mark) {
    const m = mark.getBoundingClientRect();
    tl.dispatchEvent(new MouseEvent('mousemove', { clientX: m.left + m.width / 2, clientY: m.top + m.height / 2, bubbles: true }));
    const t = document.getElementById('tip');
    root.setAttribute('data-wait-tip', t.hidden ? '' : t.textContent);
    check('wait-tooltip', !t.hidden && /: waited [0-9.]+ (ns|\u00b5s|ms|s) for rank \d+/.test(t.textContent));
    tl.dispatchEvent(new MouseEvent('mouseleave'));
  }
  const path = document.getElementById('tl-path');
  if (path && !path.disabled) {
    path.click();
    check('path-on', path.checked && tl.querySelectorAll('rect.path-seg').length > 0);
    path.click();
    check('path-off', !path.checked && tl.querySelectorAll('rect.path-seg').length === 0);
  }

  const full = axis();
  document.getElementById('tl-in').click();
  const zoomed = axis();
  check('zoom-in', zoomed !== full);
  document.getElementById('tl-out').click();
  check('zoom-out', axis() === full);
  tl.dispatchEvent(new WheelEvent('wheel', Object.assign({ deltaY: -120 }, at(0.7))));
  const wheeled = axis();
  check('wheel', wheeled !== full);
  /* Zoomed in at 0.7 of the width, the view has more room before it than
   * after it: drag towards earlier times. */
  tl.dispatchEvent(new MouseEvent('mousedown', at(0.3)));
  tl.dispatchEvent(new MouseEvent('mousemove', at(0.6)));
  window.dispatchEvent(new MouseEvent('mouseup', at(0.6)));

  const table = document.getElementById('regions');
  const calls = () => Array.from(table.tBodies[0].rows).map((r) => Number(r.cells[1].textContent.replace(/,/g, '')));
  table.tHead.rows[0].cells[1].click();
  const desc = calls();
  check('sort-desc', desc.length > 1 && desc.every((v, i) => i === 0 || desc[i - 1] >= v));
  table.tHead.rows[0].cells[1].click();
  const asc = calls();
  check('sort-asc', asc.every((v, i) => i === 0 || asc[i - 1] <= v));

  const bar = document.querySelector('#chart-ranks rect');
  const r = bar.getBoundingClientRect();
  bar.dispatchEvent(new MouseEvent('mousemove', { clientX: r.left + 1, clientY: r.top + 1, bubbles: true }));
  const tip = document.getElementById('tip');
  check('tooltip', !tip.hidden && /^rank \d+/.test(tip.textContent));

  /* What is known now is written at once; the drag renders on an
   * animation frame, which a headless browser may run late: its result is
   * waited for with timers too (virtual time runs them), at most 2 s. */
  const publish = () => {
    root.setAttribute('data-interacted', ok.join(' '));
    if (bad.length) root.setAttribute('data-interact-failed', bad.join(' '));
  };
  publish();
  let done = false, tries = 0;
  const finish = () => {
    if (done)
      return;
    if (axis() === wheeled && ++tries < 40) {
      setTimeout(finish, 50);
      return;
    }
    done = true;
    check('drag', axis() !== wheeled);
    document.getElementById('tl-reset').click();
    check('reset', axis() === full);
    publish();
  };
  requestAnimationFrame(() => requestAnimationFrame(finish));
  setTimeout(finish, 50);
})();
