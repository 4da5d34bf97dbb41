"""A self-contained HTML page that steps through one or more walks (no network, no library).

The page holds the walks as JSON: for each view, frame 0's picture in full and then only the
SVG elements that change from one frame to the next (a picture is a keyed element mapping, see
:mod:`ruleproof.properties.render.svg`), so a 400-step game stays small. A little JavaScript rebuilds the
picture of the chosen step. Controls: reading (when there are several walks), view (everything
or one player's knowledge), first / back / forward / last buttons, a slider, the arrow keys, and
the step log (click a line). The URL fragment holds the position, ``#walk=0&view=1&step=12``, so
a link (or a test) can open any step; ``&advance=N`` presses "forward" N times after loading.

The element ``#board`` carries ``data-walk``, ``data-view`` and ``data-step`` of what it shows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from ruleproof.properties.render.svg import Picture
from ruleproof.render.walk import Walk


def _deltas(pictures: Sequence[Picture]) -> list[dict[str, str | None]]:
    out: list[dict[str, str | None]] = []
    before: Picture = {}
    for pic in pictures:
        delta: dict[str, str | None] = {k: v for k, v in pic.items() if before.get(k) != v}
        delta.update({k: None for k in before if k not in pic})
        out.append(delta)
        before = pic
    return out


def walk_data(walk: Walk) -> dict[str, Any]:
    """The JSON object of one walk as the page's script reads it."""
    pictures = len(walk.frames[0].pictures)
    captions: list[Any] = []
    for f in walk.frames:
        captions.append(f.captions[0] if len(set(f.captions)) == 1 else list(f.captions))
    return {
        "title": walk.title, "game": walk.game, "views": list(walk.views),
        "notes": list(walk.notes), "open": walk.canvas.open_tag(walk.title),
        "captions": captions,
        "shows": [walk.picture_index(v) for v in range(len(walk.views))],
        "deltas": [_deltas([f.pictures[i] for f in walk.frames]) for i in range(pictures)],
    }


_STYLE = """
body{font-family:DejaVu Sans,Verdana,sans-serif;margin:12px;background:#faf8f3;color:#222}
h1{font-size:1.25em;margin:.2em 0} .notes{font-size:.85em;color:#555;margin:.2em 0 .6em}
#controls{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.4em 0}
#controls button{min-width:2.6em;padding:.2em .5em} #slider{flex:1;min-width:12em}
#status{font-weight:bold;margin:.3em 0;min-height:1.3em}
#main{display:flex;gap:12px;align-items:flex-start;flex-wrap:wrap}
#board svg{max-width:100%;height:auto;background:#fff;border:1px solid #ccc}
#log{max-height:520px;overflow:auto;font-size:.8em;margin:0;padding:0 .4em;list-style:none;
position:relative;min-width:18em;max-width:34em;border:1px solid #ddd;background:#fff}
#log li{cursor:pointer;padding:1px 2px} #log li.current{background:#ffe98a;font-weight:bold}
"""

_SCRIPT = r"""
(function(){
const DATA = JSON.parse(document.getElementById('walk-data').textContent);
const $ = id => document.getElementById(id);
const cur = {walk: 0, view: 0, step: 0};
function walk(){ return DATA.walks[cur.walk]; }
function steps(){ return walk().captions.length; }
function clamp(v, lo, hi){ v = parseInt(v, 10); return isNaN(v) ? lo : Math.max(lo, Math.min(hi, v)); }
function caption(w, v, k){ const c = w.captions[k]; return Array.isArray(c) ? c[w.shows[v]] : c; }
function picture(w, v, k){
  const m = new Map();
  for (let i = 0; i <= k; i++) {
    const d = w.deltas[w.shows[v]][i];
    for (const key in d) { if (d[key] === null) m.delete(key); else m.set(key, d[key]); }
  }
  const keys = Array.from(m.keys()).sort();
  return w.open + keys.map(key => m.get(key)).join('') + '</svg>';
}
function fill(select, labels, value){
  select.innerHTML = '';
  labels.forEach((label, i) => { const o = document.createElement('option');
    o.value = i; o.textContent = label; if (i === value) o.selected = true; select.appendChild(o); });
}
let shownWalk = -1, shownView = -1;
function render(){
  const w = walk();
  const board = $('board');
  board.innerHTML = picture(w, cur.view, cur.step);
  board.dataset.walk = cur.walk; board.dataset.view = cur.view; board.dataset.step = cur.step;
  $('title').textContent = w.title;
  $('notes').textContent = w.notes.join(' \u00b7 ');
  $('status').textContent = 'Step ' + cur.step + ' of ' + (steps() - 1) + ' (view: ' +
    w.views[cur.view] + '): ' + caption(w, cur.view, cur.step);
  $('slider').max = steps() - 1; $('slider').value = cur.step;
  if (shownWalk !== cur.walk || shownView !== cur.view) {
    fill($('walk'), DATA.walks.map(x => x.title), cur.walk);
    fill($('view'), w.views, cur.view);
    const log = $('log'); log.innerHTML = '';
    for (let k = 0; k < steps(); k++) {
      const li = document.createElement('li');
      li.textContent = caption(w, cur.view, k); li.dataset.step = k;
      li.addEventListener('click', () => go(k)); log.appendChild(li);
    }
    shownWalk = cur.walk; shownView = cur.view;
  }
  document.querySelectorAll('#log li').forEach(li => {
    const on = parseInt(li.dataset.step, 10) === cur.step;
    li.classList.toggle('current', on);
    if (on) { const log = $('log'); log.scrollTop = li.offsetTop - log.offsetTop - log.clientHeight / 2; }
  });
  $('walk-box').hidden = DATA.walks.length < 2;
}
function store(){
  const h = 'walk=' + cur.walk + '&view=' + cur.view + '&step=' + cur.step;
  if (history.replaceState) history.replaceState(null, '', '#' + h);
}
function go(step){ cur.step = clamp(step, 0, steps() - 1); store(); render(); }
function forward(){ go(cur.step + 1); }
function back(){ go(cur.step - 1); }
function readHash(){
  const p = new URLSearchParams(location.hash.slice(1));
  cur.walk = clamp(p.get('walk') || 0, 0, DATA.walks.length - 1);
  cur.view = clamp(p.get('view') || 0, 0, walk().views.length - 1);
  cur.step = clamp(p.get('step') || 0, 0, steps() - 1);
  return clamp(p.get('advance') || 0, 0, 100000);
}
$('first').addEventListener('click', () => go(0));
$('back').addEventListener('click', back);
$('forward').addEventListener('click', forward);
$('last').addEventListener('click', () => go(steps() - 1));
$('slider').addEventListener('input', e => go(e.target.value));
$('walk').addEventListener('change', e => { cur.walk = clamp(e.target.value, 0, DATA.walks.length - 1);
  cur.view = Math.min(cur.view, walk().views.length - 1); go(Math.min(cur.step, steps() - 1)); });
$('view').addEventListener('change', e => {
  cur.view = clamp(e.target.value, 0, walk().views.length - 1); go(cur.step); });
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') forward(); if (e.key === 'ArrowLeft') back(); });
window.addEventListener('hashchange', () => { readHash(); render(); });
const advance = readHash();
render();
for (let i = 0; i < advance; i++) $('forward').click();
})();
"""


def html_page(walks: Sequence[Walk], title: str, back: str | None = None) -> str:
    """The page for ``walks`` (at least one), titled ``title``; ``back`` (a URL) adds a link
    back to the page that embeds it (the site's scenario page).

    Raises:
        ValueError: no walk given.
    """
    if not walks:
        raise ValueError("a page needs at least one walk")
    data = json.dumps({"walks": [walk_data(w) for w in walks]}, separators=(",", ":"))
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")
    back_link = (f'<p class="back"><a id="back-link" href="{escape(back)}">&larr; back to the '
                 "scenario page</a></p>\n") if back else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ruleproof render">
<title>{escape(title)}</title><style>{_STYLE}</style></head>
<body>
{back_link}<h1 id="title">{escape(walks[0].title)}</h1>
<p class="notes" id="notes">{escape(' · '.join(walks[0].notes))}</p>
<div id="controls">
<label id="walk-box">reading <select id="walk"></select></label>
<label>view <select id="view"></select></label>
<button id="first" title="start">|&lt;</button><button id="back" title="back (left arrow)">&lt;</button>
<button id="forward" title="forward (right arrow)">&gt;</button><button id="last" title="end">&gt;|</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
</div>
<div id="status"></div>
<div id="main"><div id="board"></div><ul id="log"></ul></div>
<noscript>This page needs JavaScript to step through the game.</noscript>
<script type="application/json" id="walk-data">{data}</script>
<script>{_SCRIPT}</script>
</body></html>
"""
