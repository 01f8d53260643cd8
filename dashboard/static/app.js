"use strict";
// The dashboard page: lists the runs, follows the logs of the selected ones
// over server-sent events and draws one chart per logged value, every run
// in its own colour. All text from the server goes through textContent.

const colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const first = ["test/return_mean", "train/return_mean", "test/length_mean"];
const runs = new Map(); // name → run state
const charts = new Map(); // metric → {fig, canvas}
let listed = false, drawQueued = false, nextColor = 0;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

async function refreshRuns() {
  let list;
  try {
    const resp = await fetch("/api/runs");
    list = await resp.json();
  } catch (err) {
    return;
  }
  const seen = new Set();
  let gifsChanged = false;
  for (const info of list) {
    seen.add(info.name);
    const run = runs.get(info.name);
    if (!run) {
      runs.set(info.name, {info, selected: false, color: colors[nextColor++ % colors.length],
        series: new Map(), records: 0, lastStep: null, exists: false, config: null});
    } else {
      gifsChanged ||= run.selected && (info.gif !== run.info.gif || info.gif_modified !== run.info.gif_modified);
      run.info = info;
    }
  }
  for (const [name, run] of runs) {
    if (!seen.has(name)) {
      unselect(run);
      runs.delete(name);
    }
  }
  if (!listed && list.length > 0) {
    listed = true;
    const wanted = new URLSearchParams(location.search).getAll("run").filter(n => runs.has(n));
    for (const name of wanted.length > 0 ? wanted : [list[0].name]) select(runs.get(name));
  }
  renderList();
  if (gifsChanged) renderGIFs();
}

function renderList() {
  const ul = document.getElementById("runs");
  ul.replaceChildren();
  for (const name of [...runs.keys()].sort()) {
    const run = runs.get(name);
    const box = el("input", {type: "checkbox"});
    box.checked = run.selected;
    box.addEventListener("change", () => box.checked ? select(run) : unselect(run));
    const what = [run.info.algo, run.info.env, run.info.seed !== undefined ? "seed " + run.info.seed : ""].filter(Boolean).join(" · ");
    run.statusEl = el("div", {class: "status", "data-run": name});
    const label = el("label", {}, box, el("span", {class: "swatch", style: "background:" + run.color}),
      el("div", {}, el("div", {class: "name"}, name), el("div", {class: "muted"}, what), run.statusEl));
    ul.append(el("li", {"data-run": name}, label));
    renderStatus(run);
  }
  document.getElementById("no-runs").hidden = runs.size > 0;
}

function renderStatus(run) {
  if (!run.statusEl) return;
  let s = "";
  if (run.selected) s = !run.exists ? "no log yet" : run.records + " records" + (run.lastStep === null ? "" : ", step " + run.lastStep);
  run.statusEl.textContent = s;
}

function select(run) {
  if (run.selected) return;
  run.selected = true;
  const name = run.info.name;
  run.source = new EventSource("/api/log?run=" + encodeURIComponent(name));
  run.source.addEventListener("reset", e => {
    run.series = new Map();
    run.records = 0;
    run.lastStep = null;
    run.exists = JSON.parse(e.data).exists;
    changed(run);
  });
  run.source.addEventListener("records", e => {
    for (const rec of JSON.parse(e.data)) {
      for (const [key, v] of Object.entries(rec.values || {})) {
        const y = Number(v);
        if (!Number.isFinite(y)) continue;
        const metric = rec.scope + "/" + key;
        if (!run.series.has(metric)) run.series.set(metric, []);
        run.series.get(metric).push([rec.step, y]);
      }
      run.records++;
      run.lastStep = rec.step;
    }
    changed(run);
  });
  fetch("/api/config?run=" + encodeURIComponent(name))
    .then(r => r.ok ? r.json() : null).then(c => { run.config = c; renderConfigs(); }).catch(() => {});
  renderGIFs();
  renderList();
}

function unselect(run) {
  if (!run.selected) return;
  run.selected = false;
  run.source.close();
  run.series = new Map();
  run.config = null;
  changed(run);
  renderConfigs();
  renderGIFs();
}

function changed(run) {
  renderStatus(run);
  if (!drawQueued) {
    drawQueued = true;
    requestAnimationFrame(drawAll);
  }
}

function selected() {
  return [...runs.values()].filter(r => r.selected).sort((a, b) => a.info.name < b.info.name ? -1 : 1);
}

function drawAll() {
  drawQueued = false;
  const sel = selected();
  const metrics = new Set();
  for (const run of sel) for (const m of run.series.keys()) metrics.add(m);
  const order = [...first.filter(m => metrics.has(m)), ...[...metrics].filter(m => !first.includes(m)).sort()];
  for (const [m, c] of charts) if (!metrics.has(m)) { c.fig.remove(); charts.delete(m); }
  const box = document.getElementById("charts");
  for (const m of order) {
    let c = charts.get(m);
    if (!c) {
      const canvas = el("canvas", {"data-metric": m});
      c = {canvas, fig: el("figure", {}, el("figcaption", {}, m), canvas)};
      charts.set(m, c);
    }
    box.append(c.fig); // keeps the order
    draw(c.canvas, m, sel);
  }
  const legend = document.getElementById("legend");
  legend.replaceChildren(...sel.map(r => el("span", {}, el("span", {class: "swatch", style: "background:" + r.color}), " " + r.info.name)));
}

function ticks(lo, hi, n) {
  const span = hi - lo;
  const mag = 10 ** Math.floor(Math.log10(span / n));
  const step = [1, 2, 5, 10].map(m => m * mag).find(s => span / s <= n);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(t);
  return out;
}

function fmt(v) {
  const a = Math.abs(v);
  if (a >= 1e6) return +(v / 1e6).toPrecision(3) + "M";
  if (a >= 1e4) return +(v / 1e3).toPrecision(3) + "k";
  return String(+v.toPrecision(3));
}

function draw(canvas, metric, sel) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 380, h = canvas.clientHeight || 220;
  canvas.width = w * dpr;
  canvas.height = h * dpr;
  const g = canvas.getContext("2d");
  g.scale(dpr, dpr);
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity, points = 0;
  const band = metric === "test/return_mean";
  for (const run of sel) {
    const s = run.series.get(metric) || [];
    const sd = band ? run.series.get("test/return_std") || [] : [];
    s.forEach(([x, y], i) => {
      const d = sd.length === s.length ? sd[i][1] : 0;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x);
      y0 = Math.min(y0, y - d); y1 = Math.max(y1, y + d);
    });
    points += s.length;
  }
  canvas.dataset.points = points;
  if (points === 0) return;
  if (x1 === x0) { x0 -= 1; x1 += 1; }
  if (y1 === y0) { y0 -= 1; y1 += 1; }
  const L = 52, R = 10, T = 8, B = 22;
  const X = x => L + (x - x0) / (x1 - x0) * (w - L - R);
  const Y = y => h - B - (y - y0) / (y1 - y0) * (h - T - B);
  g.font = "11px system-ui, sans-serif";
  g.strokeStyle = "#e4e4e4";
  g.fillStyle = "#666";
  g.textAlign = "right";
  for (const t of ticks(y0, y1, 5)) {
    g.beginPath(); g.moveTo(L, Y(t)); g.lineTo(w - R, Y(t)); g.stroke();
    g.fillText(fmt(t), L - 4, Y(t) + 4);
  }
  g.textAlign = "center";
  for (const t of ticks(x0, x1, 5)) g.fillText(fmt(t), X(t), h - 6);
  for (const run of sel) {
    const s = run.series.get(metric) || [];
    if (s.length === 0) continue;
    const sd = band ? run.series.get("test/return_std") || [] : [];
    if (sd.length === s.length && s.length > 1) {
      g.globalAlpha = 0.15;
      g.fillStyle = run.color;
      g.beginPath();
      s.forEach(([x, y], i) => g.lineTo(X(x), Y(y + sd[i][1])));
      for (let i = s.length - 1; i >= 0; i--) g.lineTo(X(s[i][0]), Y(s[i][1] - sd[i][1]));
      g.fill();
      g.globalAlpha = 1;
    }
    g.strokeStyle = run.color;
    g.lineWidth = 1.5;
    g.beginPath();
    s.forEach(([x, y]) => g.lineTo(X(x), Y(y)));
    g.stroke();
    if (s.length === 1) { g.fillStyle = run.color; g.fillRect(X(s[0][0]) - 2, Y(s[0][1]) - 2, 4, 4); }
  }
}

function renderConfigs() {
  const box = document.getElementById("configs");
  box.replaceChildren(...selected().filter(r => r.config !== null).map(r =>
    el("details", {open: ""}, el("summary", {}, r.info.name), el("pre", {}, JSON.stringify(r.config, null, 2)))));
}

function renderGIFs() {
  const box = document.getElementById("gifs");
  const figs = selected().filter(r => r.info.gif).map(r => el("figure", {},
    el("figcaption", {}, r.info.name + " — " + r.info.gif),
    el("img", {alt: r.info.gif, src: "/api/gif?run=" + encodeURIComponent(r.info.name) + "&v=" + encodeURIComponent(r.info.gif_modified)})));
  box.replaceChildren(...(figs.length > 0 ? figs : [el("p", {class: "muted"}, "none")]));
}

window.addEventListener("resize", () => changed({}));
refreshRuns();
setInterval(refreshRuns, 3000);
