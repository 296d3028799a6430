// Kolrami battle replay: draws the data embedded in this page; needs nothing from outside.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const SC = D.meta.scenario;
  const W = SC.width;
  const HT = SC.height;
  const SHIPS = D.ships;
  const STEPS = D.steps;
  const N = STEPS.length;
  // indexes of a ship's state (kolrami.report.replay)
  const X = 0, Y = 1, H = 2, SS = 3, SH = 4, EP = 5, SYS = 6, PH = 7, PT = 8, TOK = 9, ST = 10, SPD = 11;
  const OK = 0, ADRIFT = 1, DERELICT = 2, DESTROYED = 3, RESET = 4;
  const DURATION = { deploy: 500, turn: 700, activation: 2000, phase: 1200, end: 1200 };
  const HOLD_MS = 350;
  const ARC_CENTRE = { F: 0, P: 90, A: 180, S: 270 };
  const SIDE_COLOUR = { A: "#2f7fe0", B: "#e0413a" };
  const FP = D.meta.scoring === "fleet-points";

  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(tag, cls, parent, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  const f2 = (v) => Math.round(v * 100) / 100;
  // table cm to screen: origin bottom-left, y up
  const sy = (y) => HT - y;
  // angle of a heading, in degrees counter-clockwise from up the table
  const headingAngle = (h) => 60 * h;
  function dirPoint(x, y, angle, r) {
    const a = (angle * Math.PI) / 180;
    return [x - r * Math.sin(a), y + r * Math.cos(a)];
  }

  // --- the table ---------------------------------------------------------------------------
  const svg = $("table");
  svg.setAttribute("viewBox", `-4 -4 ${W + 8} ${HT + 8}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const defs = el("defs", {}, svg);
  const planetGrad = el("radialGradient", { id: "planet", cx: "35%", cy: "35%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#9ccc65" }, planetGrad);
  el("stop", { offset: "55%", "stop-color": "#3e7b4f" }, planetGrad);
  el("stop", { offset: "100%", "stop-color": "#1b3a2a" }, planetGrad);
  const nebulaGrad = el("radialGradient", { id: "nebula" }, defs);
  el("stop", { offset: "0%", "stop-color": "#b388ff", "stop-opacity": "0.55" }, nebulaGrad);
  el("stop", { offset: "100%", "stop-color": "#7c4dff", "stop-opacity": "0.05" }, nebulaGrad);

  el("rect", { class: "felt", x: 0, y: 0, width: W, height: HT }, svg);
  el("rect", { class: "zone", x: 0, y: sy(SC.deployment), width: W, height: SC.deployment, fill: SIDE_COLOUR.A }, svg);
  el("rect", { class: "zone", x: 0, y: 0, width: W, height: SC.deployment, fill: SIDE_COLOUR.B }, svg);
  const grid = el("g", { class: "grid" }, svg);
  for (let x = 10; x < W; x += 10) el("line", { x1: x, y1: 0, x2: x, y2: HT }, grid);
  for (let y = 10; y < HT; y += 10) el("line", { x1: 0, y1: sy(y), x2: W, y2: sy(y) }, grid);
  const scaleBar = el("g", {}, svg);
  el("line", { x1: 2, y1: HT + 2.2, x2: 12, y2: HT + 2.2, stroke: "#5b6b85", "stroke-width": 0.4 }, scaleBar);
  el("text", { class: "table-label", x: 13.5, y: HT + 3.1 }, scaleBar).textContent =
    `10 cm · table ${W} × ${HT} cm`;
  const storms = []; // [group, areas by turn] of each ion storm, redrawn as the turns pass
  const ring = (g, x, y, r, attrs) =>
    el("circle", Object.assign({ cx: x, cy: sy(y), r: r, fill: "none" }, attrs), g);
  const poly = (pts) => pts.map((p) => `${f2(p[0])},${f2(sy(p[1]))}`).join(" ");
  for (const t of D.meta.terrain) {
    const g = el("g", { class: "terrain " + t.kind }, svg);
    const title = el("title", {}, g);
    if (t.r !== undefined) {
      // planets, moons and circle nebulae keep their old, plain form
      const fill = t.kind === "moon" ? "#9e9e9e" : `url(#${t.kind})`;
      el("circle", { cx: t.x, cy: sy(t.y), r: t.r, fill: fill }, g);
      title.textContent = `${t.kind} at (${t.x}, ${t.y}), radius ${t.r} cm`;
    } else if (t.kind === "nebula") {
      el("polygon", { points: poly(t.points), fill: "#9575cd", "fill-opacity": 0.35, stroke: "#7c4dff", "stroke-width": 0.4 }, g);
      title.textContent = `nebula, outline of ${t.points.length} points`;
    } else if (t.kind === "ion-storm") {
      const area = el("polygon", { points: poly(t.areas[0]), fill: "#4fc3f7", "fill-opacity": 0.25, stroke: "#0288d1", "stroke-width": 0.5, "stroke-dasharray": "2 1" }, g);
      storms.push([area, t.areas]);
      title.textContent = "ion storm (its front moves each turn)";
    } else if (t.kind === "minefield") {
      const colour = SIDE_COLOUR[t.owner] || "#888";
      for (const [x, y, gone] of t.mines) {
        const m = el("g", { class: "mine" }, g);
        el("circle", { cx: x, cy: sy(y), r: t.hex / 2, fill: colour, "fill-opacity": gone ? 0.08 : 0.25, stroke: colour, "stroke-width": 0.3, "stroke-dasharray": t.cloaked ? "0.6 0.6" : "" }, m);
        el("circle", { cx: x, cy: sy(y), r: 0.6, fill: gone ? "none" : colour, stroke: colour, "stroke-width": 0.2 }, m);
        el("title", {}, m).textContent =
          `${t.cloaked ? "cloaked " : ""}mine of side ${t.owner} at (${x}, ${y})` + (gone ? `, went off in turn ${gone}` : "");
      }
      title.textContent = `minefield of side ${t.owner} (${t.mines.length} mines)`;
    } else if (t.kind === "black-hole") {
      for (let k = t.rings; k >= 1; k--) {
        const r = t.horizon + k * t.hex;
        el("circle", { cx: t.x, cy: sy(t.y), r: r, fill: "#ff8f00", "fill-opacity": 0.06 + 0.04 * (t.rings - k + 1), stroke: "#ff6f00", "stroke-width": 0.15 }, g);
      }
      ring(g, t.x, t.y, t.horizon + (t.rings + 1) * t.hex, { stroke: "#90a4ae", "stroke-width": 0.2, "stroke-dasharray": "1 1" });
      el("circle", { cx: t.x, cy: sy(t.y), r: t.horizon, fill: "#000" }, g);
      title.textContent = `black hole: event horizon ${t.horizon} cm, accretion disk ${t.rings} hexes`;
    } else if (t.kind === "gas-giant") {
      const R = t.layers * t.hex;
      el("circle", { cx: t.x, cy: sy(t.y), r: R, fill: "#d7a86e", "fill-opacity": 0.45 }, g);
      ring(g, t.x, t.y, R - t.hex, { stroke: "#a1887f", "stroke-width": 0.2 });
      ring(g, t.x, t.y, R - 2 * t.hex, { stroke: "#8d6e63", "stroke-width": 0.2 });
      el("circle", { cx: t.x, cy: sy(t.y), r: t.hex / 2, fill: "#5d4037" }, g);
      ring(g, t.x, t.y, R + 2 * t.hex, { stroke: "#90a4ae", "stroke-width": 0.2, "stroke-dasharray": "1 1" });
      title.textContent = `gas giant, ${t.layers} hexes: outer, deeper and deepest layers, solid core`;
    } else {
      // neutron stars and magnetars: a deadly hex; a magnetar's reach
      if (t.reach) ring(g, t.x, t.y, t.reach, { stroke: "#ce93d8", "stroke-width": 0.3, "stroke-dasharray": "2 2" });
      el("circle", { cx: t.x, cy: sy(t.y), r: t.hex / 2, fill: "#e1f5fe", stroke: "#81d4fa", "stroke-width": 0.4 }, g);
      title.textContent = t.kind.replace("-", " ") + (t.reach ? `, pull out to ${t.reach} cm` : "");
    }
  }
  function drawTerrain(i) {
    const turn = STEPS[i].turn;
    for (const [area, areas] of storms) {
      area.setAttribute("points", poly(areas[Math.min(areas.length - 1, Math.max(0, turn - 1))]));
    }
  }
  const gTracks = el("g", {}, svg);
  const gArcs = el("g", {}, svg);
  const gWrecks = el("g", {}, svg);
  const gField = el("g", { class: "field" }, svg); // probes and webs (the advanced game)
  const gVolleys = el("g", {}, svg);
  const gLinks = el("g", {}, svg); // tractor beams, beam-overs, docks (module adv-tactics)
  const gShips = el("g", {}, svg);
  const gVolleyLabels = el("g", {}, svg); // above the ships: a label is never hidden under a hull
  const gMarks = el("g", {}, svg);
  const gLabels = el("g", {}, svg);

  // --- ships ----------------------------------------------------------------------------------
  const hullR = SC.base * 1.25;
  const hullPath = `M0,${-hullR} L${hullR * 0.72},${hullR * 0.85} L0,${hullR * 0.42} L${-hullR * 0.72},${hullR * 0.85} Z`;
  const shipNodes = SHIPS.map((s, i) => {
    const cls = D.classes[s.cls];
    const g = el("g", { class: "ship", "data-ship": s.id }, gShips);
    el("circle", { class: "base", r: SC.base, stroke: s.colour }, g);
    el("path", { class: "hull", d: hullPath, fill: s.colour }, g);
    el("title", {}, g).textContent = `${s.id} ${cls.name} (${cls.type}), squadron ${s.sq}`;
    const label = el("text", { class: "ship-label" }, gLabels);
    label.textContent = s.id;
    g.addEventListener("mouseenter", () => hover(i));
    g.addEventListener("mouseleave", () => hover(null));
    g.addEventListener("click", () => pin(i));
    return { g, label };
  });

  // --- moves: cumulative lengths so a ship can be placed anywhere along its path -------------
  const moveOf = STEPS.map((step) => {
    const out = {};
    for (const [idx, a, b, path, h] of step.moves) {
      const cum = [0];
      for (let k = 1; k < path.length; k++) {
        cum.push(cum[k - 1] + Math.hypot(path[k][0] - path[k - 1][0], path[k][1] - path[k - 1][1]));
      }
      out[idx] = { a, b, path, h, cum, len: cum[cum.length - 1] };
    }
    return out;
  });
  function alongPath(mv, u) {
    const d = u * mv.len;
    const p = mv.path;
    for (let k = 1; k < p.length; k++) {
      if (d <= mv.cum[k] || k === p.length - 1) {
        const seg = mv.cum[k] - mv.cum[k - 1];
        const t = seg > 0 ? clamp((d - mv.cum[k - 1]) / seg, 0, 1) : 1;
        const dx = p[k][0] - p[k - 1][0], dy = p[k][1] - p[k - 1][1];
        const angle = seg > 1e-6 ? (Math.atan2(-dx, dy) * 180) / Math.PI : null;
        return [p[k - 1][0] + dx * t, p[k - 1][1] + dy * t, angle];
      }
    }
    return [p[0][0], p[0][1], null];
  }
  function turnToward(from, to, u) {
    let d = (((to - from) % 360) + 540) % 360 - 180;
    return from + d * u;
  }

  // --- state at a moment: step i, fraction f of the step ----------------------------------
  function before(i) {
    return i > 0 ? STEPS[i - 1] : STEPS[0];
  }
  function stateAt(i, f) {
    if (f >= 1) return STEPS[i].state;
    const cur = before(i).state.slice();
    for (const [t, idx, st] of STEPS[i].changes) if (t <= f) cur[idx] = st;
    return cur;
  }
  function scoreAt(i, f) {
    if (f >= 1) return STEPS[i].score;
    let score = before(i).score;
    for (const [t, a, b] of STEPS[i].scores) if (t <= f) score = [a, b];
    return score;
  }
  // position and facing angle of ship idx at (i, f), given the state there
  function poseAt(i, f, idx, state) {
    const mv = moveOf[i][idx];
    const prev = before(i).state[idx];
    if (!mv) {
      const s = state[idx];
      return [s[X], s[Y], headingAngle(s[H])];
    }
    const u = mv.b > mv.a ? clamp((f - mv.a) / (mv.b - mv.a), 0, 1) : f >= mv.a ? 1 : 0;
    const start = headingAngle(prev[H]);
    const end = headingAngle(mv.h);
    if (u >= 1) {
      const p = mv.path[mv.path.length - 1];
      return [p[0], p[1], end];
    }
    if (u <= 0) return [mv.path[0][0], mv.path[0][1], start];
    if (mv.len < 1e-6) return [mv.path[0][0], mv.path[0][1], turnToward(start, end, u)];
    const [x, y, angle] = alongPath(mv, u);
    return [x, y, angle === null ? end : angle];
  }

  // --- header, legend, score ----------------------------------------------------------------
  const fleets = D.meta.fleets;
  $("title").textContent = D.title;
  const rulesNote = D.meta.rules.filter((r) => !r.startsWith("fpf-") && !r.startsWith("masking"));
  $("meta").textContent =
    `${SC.title} · ${SC.turns} turns · seed ${D.meta.seed} · captains ` +
    `${D.meta.captains.join(" vs ")}` + (rulesNote.length ? ` · rules: ${rulesNote.join(", ")}` : "") +
    ` · Kolrami ${D.meta.kolrami} (` + (D.meta.advanced ? "advanced rules " : "") +
    `${D.meta.rules_version}, data ${D.meta.data_version})`;
  const scoreBoxes = ["A", "B"].map((side, k) => {
    const box = html("div", "score-box", $("score"));
    box.style.setProperty("--side", SIDE_COLOUR[side]);
    html("div", "who", box, `Side ${side}: ${fleets[k] ? fleets[k].name : ""}`);
    const pts = html("div", "pts", box);
    return { box, pts, last: null };
  });
  const legend = $("legend");
  legend.innerHTML = "";
  const item = (cls, text, colour) => {
    const span = html("span", "", legend);
    const mark = html(cls === "dot" ? "i" : "b", cls === "dot" ? "" : cls, span);
    if (colour) mark.style.background = colour;
    span.appendChild(document.createTextNode(text));
  };
  item("line", "phaser volley");
  item("line photon", "photon volley");
  for (const [loc, colour] of Object.entries(D.locations)) {
    if (loc !== "superstructure") item("dot", loc.replace("_", " ") + " hit", colour);
  }
  html("span", "", legend, "3/6: shots through / fired · ✶ destroyed · ◌ reset · hover a ship for its arcs");

  // --- status panel ---------------------------------------------------------------------------
  const sideGrids = {};
  ["A", "B"].forEach((side, k) => {
    const head = html("div", "side-head", $("ships"), `Side ${side}: ${fleets[k] ? fleets[k].name : ""}`);
    head.style.setProperty("--side", SIDE_COLOUR[side]);
    sideGrids[side] = html("div", "cards", $("ships"));
  });
  const cards = SHIPS.map((s, i) => {
    const cls = D.classes[s.cls];
    const card = html("div", "card", sideGrids[s.side] || $("ships"));
    card.dataset.ship = s.id;
    card.style.setProperty("--c", s.colour);
    card.title = `${s.id} ${cls.title}, ${cls.type}, squadron ${s.sq}, ${cls.value} points; ` +
      s.weapons.map((w) => `${w.kind}s ${w.shots} shots str ${w.str} ${w.range} cm arcs ${w.arcs.join("/")}`).join("; ");
    html("div", "name", card, `${s.id} ${cls.name}`);
    const rows = {};
    const shots = (kind) => s.weapons.filter((w) => w.kind === kind).reduce((n, w) => n + w.shots, 0);
    // the advanced game's sheet: the weakest shield facing, power, beam banks and launchers
    const ADV = D.meta.advanced;
    for (const [key, label, max] of [
      ["ss", "SS", s.max.ss],
      ["sh", "Shld", s.max.sh],
      ["ep", ADV ? "Pwr" : "Eng", s.max.ep],
      ["sys", "Sys", s.max.sys],
      ["ph", ADV ? "Beam" : "Phas", shots("phaser")],
      ["pt", ADV ? "Torp" : "Phot", shots("photon")],
    ]) {
      if (max === 0 && (key === "ph" || key === "pt" || (ADV && key === "sys"))) continue;
      const row = html("div", "row", card);
      html("span", "", row, label);
      const bar = html("div", "bar", row);
      const fill = html("span", "", bar);
      const val = html("span", "val", row);
      rows[key] = { row, bar, fill, val, max };
    }
    const foot = html("div", "misc", card);
    const misc = html("span", "", foot);
    const badge = html("span", "badge", foot);
    card.addEventListener("mouseenter", () => hover(i));
    card.addEventListener("mouseleave", () => hover(null));
    card.addEventListener("click", () => pin(i));
    return { card, badge, rows, misc, cls };
  });
  function setRow(r, value, startValue) {
    const frac = r.max > 0 ? clamp(value / r.max, 0, 1) : 0;
    r.fill.style.width = `${Math.round(frac * 100)}%`;
    r.bar.className = "bar" + (frac <= 0.25 ? " low" : frac <= 0.5 ? " mid" : "");
    r.val.textContent = `${value}/${r.max}`;
    r.row.className = "row" + (value < startValue ? " hurt" : "");
  }
  function updateCards(state, startState) {
    cards.forEach((c, i) => {
      const s = state[i], s0 = startState[i];
      setRow(c.rows.ss, Math.max(0, s[SS]), Math.max(0, s0[SS]));
      setRow(c.rows.sh, s[SH], s0[SH]);
      setRow(c.rows.ep, s[EP], s0[EP]);
      if (c.rows.sys) setRow(c.rows.sys, s[SYS], s0[SYS]);
      if (c.rows.ph) setRow(c.rows.ph, s[PH], s0[PH]);
      if (c.rows.pt) setRow(c.rows.pt, s[PT], s0[PT]);
      c.misc.textContent = `${SHIPS[i].sq} · ${s[SPD]} cm` + (FP ? ` · ${s[TOK]} token${s[TOK] === 1 ? "" : "s"}` : "");
      c.badge.textContent = s[ST] === OK ? "" : D.statuses[s[ST]];
      c.badge.className = "badge s" + s[ST];
      c.card.classList.toggle("gone", s[ST] === DESTROYED || s[ST] === RESET);
      c.card.classList.toggle("sel", i === hovered || i === pinned);
    });
  }

  // --- arcs on hover --------------------------------------------------------------------------
  let hovered = null, pinned = null, lastPoses = [];
  function hover(i) {
    hovered = i;
    render();
  }
  function pin(i) {
    pinned = pinned === i ? null : i;
    render();
  }
  function wedge(x, y, angle, from, to, r) {
    const [x1, y1] = dirPoint(x, y, angle + from, r);
    const [x2, y2] = dirPoint(x, y, angle + to, r);
    return `M${f2(x)},${f2(sy(y))} L${f2(x1)},${f2(sy(y1))} A${r},${r} 0 0 0 ${f2(x2)},${f2(sy(y2))} Z`;
  }
  function drawArcs(idx, state) {
    gArcs.textContent = "";
    if (idx === null) return;
    const s = state[idx];
    if (s[ST] === DESTROYED || s[ST] === RESET) return;
    const [x, y, angle] = lastPoses[idx];
    for (const w of SHIPS[idx].weapons) {
      for (const arc of w.arcs) {
        const c = ARC_CENTRE[arc];
        el("path", { class: "arc " + w.kind, d: wedge(x, y, angle, c - 45, c + 45, w.range) }, gArcs);
        const [lx, ly] = dirPoint(x, y, angle + c, w.range - 2.5);
        const t = el("text", { class: "arc-label", x: f2(lx), y: f2(sy(ly)), "text-anchor": "middle" }, gArcs);
        t.textContent = `${arc} ${w.kind}s ${w.range}`;
      }
    }
  }

  // --- one frame ----------------------------------------------------------------------------
  let cur = { i: 0, f: 1 };
  const wrecks = []; // [step, x, y] of each destruction
  STEPS.forEach((step, i) => {
    for (const [, , how, x, y] of step.marks) if (how === "destroyed") wrecks.push([i, x, y]);
  });

  function polyline(path, cls, colour, parent) {
    const pts = path.map((p) => `${f2(p[0])},${f2(sy(p[1]))}`).join(" ");
    return el("polyline", { class: cls, points: pts, stroke: colour }, parent);
  }
  function drawTracks(i, f) {
    gTracks.textContent = "";
    // the current and the previous turn's tracks, or every track with "All tracks"
    const from = $("tracks").checked ? 0 : turnStart[Math.max(0, STEPS[i].turn - 1)] || 0;
    {
      for (let k = from; k < i; k++) {
        for (const [idx, , , path] of STEPS[k].moves) polyline(path, "track old", SHIPS[idx].colour, gTracks);
      }
    }
    for (const [idx, , , path] of STEPS[i].moves) polyline(path, "track now", SHIPS[idx].colour, gTracks);
  }
  // A volley's label goes at the first place near its line's middle (along the line first, then
  // ever further off it) where it covers no ship, no ship's label and no other volley's label: at
  // whole-table zoom the ships are small and close, and the line's own length is often under a hull.
  function overlap(a, b) {
    return Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
      Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  }
  const LABEL_SPOTS = [[0.5, 0, 0]];
  for (const u of [0.38, 0.62, 0.26, 0.74]) LABEL_SPOTS.push([u, 0, 0]);
  for (const r of [2, 3.5, 5, 6.5, 8, 10]) {
    for (let k = 0; k < 12; k++) LABEL_SPOTS.push([0.5, r, (k * Math.PI) / 6 + (k % 2 ? Math.PI : 0)]);
  }
  function placeVolleyLabel(label, ax, ay, bx, by, taken) {
    const z = labelZoom();
    let best = null;
    for (const [u, r, a] of LABEL_SPOTS) {
      const x = ax + (bx - ax) * u + Math.cos(a) * r * z, y = sy(ay + (by - ay) * u) + Math.sin(a) * r * z + 0.8 * z;
      label.setAttribute("x", f2(x));
      label.setAttribute("y", f2(y));
      const box = label.getBBox();
      const covered = taken.reduce((sum, o) => sum + overlap(box, o), 0);
      if (best === null || covered < best[3]) best = [x, y, box, covered];
      if (covered === 0) break;
    }
    label.setAttribute("x", f2(best[0]));
    label.setAttribute("y", f2(best[1]));
    taken.push(best[2]);
  }
  function shipBoxes() {
    const boxes = [];
    SHIPS.forEach((_, idx) => {
      const node = shipNodes[idx];
      if (node.g.style.display === "none") return;
      const [x, y] = lastPoses[idx];
      const r = hullR + 0.3;
      boxes.push({ x: x - r, y: sy(y) - r, width: 2 * r, height: 2 * r }, node.label.getBBox());
    });
    return boxes;
  }
  function drawVolleys(i, f) {
    gVolleys.textContent = "";
    gVolleyLabels.textContent = "";
    const taken = shipBoxes();
    for (const v of STEPS[i].volleys) {
      if (v.t > f) continue;
      const st = stateAt(i, v.t);
      const [ax, ay] = poseAt(i, v.t, v.a, st);
      const [bx, by] = poseAt(i, v.t, v.b, st);
      const fresh = f < 1 && f - v.t < 0.12;
      const g = el("g", { opacity: fresh ? 1 : 0.75 }, gVolleys);
      const miss = v.through === 0 ? " miss" : "";
      el("line", {
        class: `volley ${v.w}${miss}`, x1: f2(ax), y1: f2(sy(ay)), x2: f2(bx), y2: f2(sy(by)),
        stroke: v.w === "phaser" ? SHIPS[v.a].colour : null,
      }, g);
      const firer = SHIPS[v.a], target = SHIPS[v.b];
      const dmg = v.hits.reduce((sum, h) => sum + h[1], 0);
      el("title", {}, g).textContent =
        `${firer.id} → ${target.id}: ${v.n} ${v.w}s str ${v.str} vs shields ${v.sh} at ` +
        `${v.rng} cm; rolls ${v.rolls.join(" ")}; ${v.through} through` +
        (v.hits.length ? `; hits: ${v.hits.map((h) => h[0].replace("_", " ") + " " + h[1]).join(", ")}` : "");
      const label = el("text", { class: "volley-label", "text-anchor": "middle", opacity: fresh ? 1 : 0.75 }, gVolleyLabels);
      label.textContent = `${v.through}/${v.n}` + (dmg ? ` −${dmg}` : "");
      placeVolleyLabel(label, ax, ay, bx, by, taken);
      // hit locations: one dot per hit, on the side of the target facing the firer
      const toward = (Math.atan2(-(ax - bx), ay - by) * 180) / Math.PI;
      v.hits.forEach((h, k) => {
        const spread = v.hits.length > 1 ? (k / (v.hits.length - 1) - 0.5) * 100 : 0;
        const [hx, hy] = dirPoint(bx, by, toward + spread, SC.base + 0.9);
        el("circle", {
          cx: f2(hx), cy: f2(sy(hy)), r: 0.75, fill: D.locations[h[0]] || "#fff", stroke: "#0a1628", "stroke-width": 0.2,
        }, g);
      });
    }
  }
  function star(x, y, r) {
    const pts = [];
    for (let k = 0; k < 16; k++) {
      const [px, py] = dirPoint(x, y, k * 22.5, k % 2 ? r * 0.45 : r);
      pts.push(`${f2(px)},${f2(sy(py))}`);
    }
    return pts.join(" ");
  }
  const LINK_STYLE = {
    tractor: { stroke: "#4fc3f7", "stroke-width": 0.8, "stroke-dasharray": "1.2 0.6" },
    board: { stroke: "#ffb300", "stroke-width": 0.6, "stroke-dasharray": "0.4 0.6" },
    dock: { stroke: "#3fb950", "stroke-width": 1.2 },
  };
  function drawLinks(i, f, state) {
    gLinks.textContent = "";
    for (const [a, b, from, to, kind] of STEPS[i].links || []) {
      if (f < a || f > b) continue;
      const [x1, y1] = poseAt(i, f, from, state);
      const [x2, y2] = poseAt(i, f, to, state);
      const line = el("line", { x1: f2(x1), y1: f2(sy(y1)), x2: f2(x2), y2: f2(sy(y2)), class: `link ${kind}` }, gLinks);
      for (const [k, v] of Object.entries(LINK_STYLE[kind] || {})) line.setAttribute(k, v);
      const title = el("title", {}, line);
      title.textContent = `${SHIPS[from].id} ${kind} ${SHIPS[to].id}`;
    }
  }
  function drawMarks(i, f) {
    gMarks.textContent = "";
    gWrecks.textContent = "";
    for (const [k, x, y] of wrecks) {
      if (k >= i) continue;
      const g = el("g", { class: "wreck" }, gWrecks);
      el("line", { x1: x - 1.5, y1: sy(y) - 1.5, x2: x + 1.5, y2: sy(y) + 1.5 }, g);
      el("line", { x1: x - 1.5, y1: sy(y) + 1.5, x2: x + 1.5, y2: sy(y) - 1.5 }, g);
    }
    for (const [t, idx, how, mx, my] of STEPS[i].marks) {
      if (t > f || how === "strain") continue;
      const [x, y] = how === "returned" ? [mx, my] : poseAt(i, t, idx, stateAt(i, t));
      if (how === "destroyed") {
        el("polygon", { points: star(x, y, 4.5), fill: "#ff7043", stroke: "#ffd54f", "stroke-width": 0.4 }, gMarks);
      } else if (how === "reset") {
        el("circle", { cx: x, cy: sy(y), r: 4, fill: "none", stroke: "#b392f0", "stroke-width": 0.5, "stroke-dasharray": "1 0.7" }, gMarks);
      } else if (how === "returned") {
        el("circle", { cx: x, cy: sy(y), r: 4, fill: "none", stroke: "#3fb950", "stroke-width": 0.5 }, gMarks);
      }
      const t2 = el("text", { class: "mark-label", x: f2(x), y: f2(sy(y) + 7), "text-anchor": "middle" }, gMarks);
      t2.textContent = `${SHIPS[idx].id} ${how}`;
    }
  }
  // whose view: the referee's (every ship; cloaked ones faint) or a side's (no cloaked enemy)
  const viewSel = $("view");
  if (viewSel && D.meta.view && D.meta.view !== "referee") {
    // a side's page holds only what that side saw: its view is the only one there is
    viewSel.textContent = "";
    const only = document.createElement("option");
    only.value = D.meta.view;
    only.textContent = `side ${D.meta.view}`;
    viewSel.appendChild(only);
    viewSel.disabled = true;
  }
  function fieldOf(i) {
    return STEPS[i].field || { probes: [], webs: [], weaving: [], cloaked: [] };
  }
  function drawShips(i, f, state) {
    lastPoses = SHIPS.map((_, idx) => poseAt(i, f, idx, state));
    const cloaked = new Set(fieldOf(i).cloaked);
    const side = viewSel ? viewSel.value : "";
    SHIPS.forEach((s, idx) => {
      const node = shipNodes[idx];
      const st = state[idx][ST];
      const under = cloaked.has(idx);
      const hidden = st === DESTROYED || st === RESET || (under && side !== "" && s.side !== side);
      node.g.style.display = hidden ? "none" : "";
      node.label.style.display = hidden ? "none" : "";
      if (hidden) return;
      const [x, y, angle] = lastPoses[idx];
      node.g.setAttribute("transform", `translate(${f2(x)},${f2(sy(y))}) rotate(${f2(-angle)})`);
      node.g.setAttribute(
        "class",
        "ship" + (st === ADRIFT ? " adrift" : st === DERELICT ? " derelict" : "") +
          (under ? " cloaked" : "") + (idx === hovered || idx === pinned ? " sel" : ""),
      );
      node.label.setAttribute("x", f2(x + SC.base + 0.6));
      node.label.setAttribute("y", f2(sy(y) - SC.base));
    });
  }
  function drawScore(i, f) {
    const score = scoreAt(i, f);
    const end = STEPS[i].kind === "end" && f >= 1 && D.meta.result;
    scoreBoxes.forEach((b, k) => {
      const unit = FP ? "Fleet Points" : "pts destroyed";
      b.pts.innerHTML = "";
      b.pts.appendChild(document.createTextNode(String(score[k])));
      html("small", "", b.pts, unit);
      b.box.classList.toggle("flash", b.last !== null && b.last !== score[k]);
      b.box.classList.toggle("winner", !!end && D.meta.result.winner === "AB"[k]);
      b.last = score[k];
    });
  }
  let logStep = -1;
  const logItems = [];
  function drawLog(i, f) {
    if (logStep !== i) {
      const ol = $("log");
      ol.textContent = "";
      logItems.length = 0;
      for (const [t, text, style] of STEPS[i].log) logItems.push([t, html("li", style, ol, text)]);
      if (!STEPS[i].log.length) html("li", "move", ol, "Nothing happens.");
      logStep = i;
    }
    for (const [t, li] of logItems) li.classList.toggle("future", t > f);
    $("log-title").textContent = `Log: ${STEPS[i].label}`;
  }
  function drawTimeline(i, f) {
    $("slider").value = String(i);
    let label = STEPS[i].label;
    if (STEPS[i].kind === "end" && D.meta.result) {
      const r = D.meta.result;
      label += `: ${r.winner ? "side " + r.winner + " wins" : "a draw"} (${r.reason})`;
    }
    $("step-label").textContent = `${label}  [${i + 1}/${N}]`;
    $("turn").value = String(STEPS[i].turn);
    for (const span of ticks) span.classList.toggle("now", Number(span.dataset.turn) === STEPS[i].turn);
    document.body.dataset.step = String(i);
    document.body.dataset.turn = String(STEPS[i].turn);
  }
  function drawField(i) {
    gField.textContent = "";
    const fld = fieldOf(i);
    for (const [x, y, side] of fld.probes) {
      const g = el("g", { class: "probe" }, gField);
      const r = 1.4;
      el("polygon", {
        points: `${f2(x)},${f2(sy(y) - r)} ${f2(x + r)},${f2(sy(y))} ${f2(x)},${f2(sy(y) + r)} ${f2(x - r)},${f2(sy(y))}`,
        fill: SIDE_COLOUR[side], stroke: "#fff", "stroke-width": 0.25,
      }, g);
      el("circle", { class: "probe-reach", cx: f2(x), cy: f2(sy(y)), r: 24 }, g);
      el("title", {}, g).textContent = `sensor probe of side ${side} at (${Math.round(x)}, ${Math.round(y)})`;
    }
    const web = (idx, cls, title) => {
      const [x, y] = lastPoses[idx];
      const g = el("g", { class: cls }, gField);
      const r = SC.base * 2.2;
      el("circle", { cx: f2(x), cy: f2(sy(y)), r: f2(r) }, g);
      el("circle", { cx: f2(x), cy: f2(sy(y)), r: f2(r * 0.6) }, g);
      for (let k = 0; k < 6; k++) {
        const [px, py] = dirPoint(x, y, k * 60, r);
        el("line", { x1: f2(x), y1: f2(sy(y)), x2: f2(px), y2: f2(sy(py)) }, g);
      }
      el("title", {}, g).textContent = `${SHIPS[idx].id} ${title}`;
    };
    for (const [idx, permanent] of fld.webs) web(idx, permanent ? "web permanent" : "web", permanent ? "held in a permanent web" : "held in a temporary web");
    for (const idx of fld.weaving) web(idx, "web weaving", "has a web being woven around it");
  }
  if (viewSel) viewSel.addEventListener("change", () => render());
  function render() {
    const { i, f } = cur;
    const state = stateAt(i, f);
    drawTerrain(i);
    drawTracks(i, f);
    drawShips(i, f, state);
    drawField(i);
    drawVolleys(i, f);
    drawLinks(i, f, state);
    drawMarks(i, f);
    drawArcs(pinned !== null ? pinned : hovered, state);
    updateCards(state, before(i).state);
    drawScore(i, f);
    drawLog(i, f);
    drawTimeline(i, f);
  }

  // --- timeline -------------------------------------------------------------------------------
  const turnStart = {};
  STEPS.forEach((s, i) => {
    if (!(s.turn in turnStart)) turnStart[s.turn] = i;
  });
  const slider = $("slider");
  slider.max = String(N - 1);
  const ticks = [];
  for (const [turn, i] of Object.entries(turnStart)) {
    const opt = html("option", "", $("turn"), turn === "0" ? "deploy" : turn);
    opt.value = turn;
    const span = html("span", "", $("ticks"), turn === "0" ? "D" : turn);
    span.style.left = `${N > 1 ? (i / (N - 1)) * 100 : 0}%`;
    span.dataset.turn = turn;
    span.title = turn === "0" ? "Deployment" : `Turn ${turn}`;
    span.addEventListener("click", () => go(i, 1));
    ticks.push(span);
  }

  let playing = false, lastTs = 0, hold = 0, speed = 1;
  function go(i, f) {
    pause();
    cur = { i: clamp(i, 0, N - 1), f };
    render();
  }
  function step(delta) {
    if (delta > 0) go(cur.f < 1 ? cur.i : cur.i + 1, 1);
    else go(cur.i - 1, 1);
  }
  function play() {
    if (playing) return;
    if (cur.i >= N - 1 && cur.f >= 1) cur = { i: 0, f: 1 };
    playing = true;
    hold = cur.f >= 1 ? HOLD_MS : 0;
    $("play").textContent = "❚❚ Pause";
    lastTs = performance.now();
    requestAnimationFrame(tick);
  }
  function pause() {
    playing = false;
    $("play").textContent = "▶ Play";
  }
  function tick(ts) {
    if (!playing) return;
    const dt = Math.max(0, ts - lastTs) * speed;
    lastTs = ts;
    if (cur.f >= 1) {
      hold += dt;
      if (hold >= HOLD_MS) {
        if (cur.i >= N - 1) {
          pause();
          return;
        }
        cur = { i: cur.i + 1, f: 0 };
        hold = 0;
      }
    } else {
      cur.f = Math.min(1, cur.f + dt / DURATION[STEPS[cur.i].kind]);
    }
    render();
    requestAnimationFrame(tick);
  }
  $("play").addEventListener("click", () => (playing ? pause() : play()));
  $("next").addEventListener("click", () => step(1));
  $("prev").addEventListener("click", () => step(-1));
  $("first").addEventListener("click", () => go(0, 1));
  $("last").addEventListener("click", () => go(N - 1, 1));
  $("turn").addEventListener("change", (e) => go(turnStart[e.target.value], 1));
  $("speed").addEventListener("change", (e) => (speed = Number(e.target.value)));
  $("tracks").addEventListener("change", render);
  slider.addEventListener("input", () => go(Number(slider.value), 1));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    const keys = {
      " ": () => (playing ? pause() : play()),
      ArrowRight: () => step(1),
      ArrowLeft: () => step(-1),
      Home: () => go(0, 1),
      End: () => go(N - 1, 1),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });

  // --- zoom and pan: the mouse wheel zooms about the pointer, dragging pans --------------------
  const full = { x: -4, y: -4, w: W + 8, h: HT + 8 };
  let view = { ...full };
  function setView(v) {
    const w = clamp(v.w, 20, full.w * 1.5);
    const h = (w * full.h) / full.w;
    view = { x: v.x + (v.w - w) / 2, y: v.y + (v.h - h) / 2, w, h };
    svg.setAttribute("viewBox", `${f2(view.x)} ${f2(view.y)} ${f2(view.w)} ${f2(view.h)}`);
    // labels grow more slowly than the table when zoomed in, so they stay readable, not huge
    svg.style.setProperty("--z", String(f2(Math.sqrt(view.w / full.w))));
  }
  function labelZoom() {
    return Math.sqrt(view.w / full.w);
  }
  function toTable(evt) {
    const r = svg.getBoundingClientRect();
    const scale = Math.max(view.w / r.width, view.h / r.height);
    const ox = (r.width - view.w / scale) / 2, oy = (r.height - view.h / scale) / 2;
    return [view.x + (evt.clientX - r.left - ox) * scale, view.y + (evt.clientY - r.top - oy) * scale, scale];
  }
  svg.addEventListener("wheel", (evt) => {
    evt.preventDefault();
    const [px, py] = toTable(evt);
    const k = evt.deltaY > 0 ? 1.15 : 1 / 1.15;
    const w = clamp(view.w * k, 20, full.w * 1.5);
    const ratio = w / view.w;
    setView({ x: px - (px - view.x) * ratio, y: py - (py - view.y) * ratio, w, h: view.h * ratio });
  }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (evt) => {
    if (evt.target.closest && evt.target.closest(".ship")) return;
    drag = { x: evt.clientX, y: evt.clientY, view: { ...view }, scale: toTable(evt)[2] };
    svg.classList.add("panning");
    svg.setPointerCapture(evt.pointerId);
  });
  svg.addEventListener("pointermove", (evt) => {
    if (!drag) return;
    const v = drag.view;
    setView({ ...v, x: v.x - (evt.clientX - drag.x) * drag.scale, y: v.y - (evt.clientY - drag.y) * drag.scale });
  });
  const endDrag = () => {
    drag = null;
    svg.classList.remove("panning");
  };
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);
  function zoomToShips() {
    const pts = lastPoses.filter((_, idx) => {
      const st = stateAt(cur.i, cur.f)[idx][ST];
      return st !== DESTROYED && st !== RESET;
    });
    if (!pts.length) return setView(full);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => sy(p[1]));
    const margin = 18;
    const x0 = Math.min(...xs) - margin, x1 = Math.max(...xs) + margin;
    const y0 = Math.min(...ys) - margin, y1 = Math.max(...ys) + margin;
    const w = Math.max(x1 - x0, ((y1 - y0) * full.w) / full.h);
    setView({ x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - (w * full.h) / full.w / 2, w, h: (w * full.h) / full.w });
  }
  $("zoom-ships").addEventListener("click", zoomToShips);
  $("zoom-table").addEventListener("click", () => setView(full));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === "z" || e.key === "Z") zoomToShips();
    if (e.key === "t" || e.key === "T") setView(full);
  });

  render();
  // for tests and embedding pages: where the replay is, and a way to move it
  window.kolramiReplay = {
    ready: true,
    readyMs: performance.now(), // since navigation began: how long the page took to open
    steps: N,
    turnStart,
    get step() { return cur.i; },
    get frac() { return cur.f; },
    get playing() { return playing; },
    go,
    zoomToShips,
    wholeTable: () => setView(full),
    play,
    pause,
  };
})();
