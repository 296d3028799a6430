// The board of /play/<game>: draws the deciding side's view (to scale, in cm), offers the
// decision's choices as buttons, dots and lists, and sends orders in the log's text form.
// Plain JavaScript, no other file: the app works without internet.
(function () {
  "use strict";
  var root = document.getElementById("play");
  if (!root) return;
  var gid = root.dataset.game, csrf = root.dataset.csrf;
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLOURS = { A: "#2f7fe0", B: "#e0413a" };
  var ARC_NAMES = { F: "forward", P: "port", S: "starboard", A: "aft" };
  var state = null, picked = {}, fire = {}, confirmedSide = null;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  // table (x, y) in cm, +y up the table; the screen's y runs down
  function sx(x) { return x; }
  function sy(y) { return state.table.h - y; }
  // a direction at `deg` degrees counter-clockwise from +x, on the screen
  function dir(deg) { var r = deg * Math.PI / 180; return [Math.cos(r), -Math.sin(r)]; }
  function headingDeg(h) { return 90 + 60 * h; }

  function request(method, url, body) {
    var opts = { method: method, headers: { "X-CSRF-Token": csrf, "Accept": "application/json" } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(url, opts).then(function (r) {
      return r.text().then(function (t) {
        try { return { status: r.status, body: JSON.parse(t) }; }
        catch (e) { return { status: r.status, body: { refused: "the server answered " + r.status, rules: [] } }; }
      });
    });
  }

  function load() {
    request("GET", "/play/" + gid + "/state").then(function (r) { show(r.body); });
  }

  function show(s) {
    state = s;
    picked = {};
    fire = {};
    root.dataset.orders = s.orders;
    root.dataset.over = s.over ? "yes" : "no";
    root.dataset.kind = s.decision ? s.decision.kind : "";
    var pass = document.getElementById("pass");
    if (s.pass_to && confirmedSide !== s.side) {
      pass.hidden = false;
      document.getElementById("pass-title").textContent = "Pass the device to side " + s.side;
      var ok = document.getElementById("pass-ok");
      ok.textContent = "I am side " + s.side;
      ok.onclick = function () { confirmedSide = s.side; pass.hidden = true; draw(); };
      document.getElementById("board").innerHTML = "";
      document.getElementById("decision").innerHTML = "";
      return;
    }
    confirmedSide = s.side;
    pass.hidden = true;
    draw();
  }

  function draw() {
    var s = state;
    document.getElementById("turn").textContent = s.over
      ? "Battle over after turn " + s.turn
      : "Turn " + s.turn + " of " + s.turn_limit;
    document.getElementById("who").textContent = s.over ? "" :
      "side " + s.side + " to decide (" + (s.seats[s.side] === "human" ? "you" : s.seats[s.side]) +
      "); A: " + s.seats.A + ", B: " + s.seats.B;
    drawBoard();
    drawDecision();
    drawReach();
    drawDice();
    var told = document.getElementById("narration");
    told.textContent = s.narration.join("\n");
    told.scrollTop = told.scrollHeight;  // the latest at the bottom, in view
    document.getElementById("refusal").hidden = true;
  }

  function drawBoard() {
    var s = state, board = document.getElementById("board");
    board.innerHTML = "";
    board.setAttribute("viewBox", "-2 -2 " + (s.table.w + 4) + " " + (s.table.h + 4));
    board.appendChild(svg("rect", { x: 0, y: 0, width: s.table.w, height: s.table.h, class: "table" }));
    for (var gx = 10; gx < s.table.w; gx += 10)
      board.appendChild(svg("line", { x1: gx, y1: 0, x2: gx, y2: s.table.h, class: "grid" }));
    for (var gy = 10; gy < s.table.h; gy += 10)
      board.appendChild(svg("line", { x1: 0, y1: gy, x2: s.table.w, y2: gy, class: "grid" }));
    s.obstacles.forEach(function (o) {
      board.appendChild(svg("circle", { cx: sx(o[0]), cy: sy(o[1]), r: o[2], class: "planet" }));
    });
    (s.mines || []).forEach(function (m) {
      var mine = svg("circle", { cx: sx(m.x), cy: sy(m.y), r: 1.4, class: "mine" + (m.firing ? " firing" : ""), stroke: COLOURS[m.owner] });
      var t = svg("title");
      t.textContent = (m.firing ? "firing mine" : "mine") + " of side " + m.owner;
      mine.appendChild(t);
      board.appendChild(mine);
    });
    var arcs = svg("g", { id: "arcs" });
    board.appendChild(arcs);
    var ends = svg("g", { id: "ends" });
    board.appendChild(ends);
    if (s.decision && s.decision.ends && s.seats[s.side] === "human") drawEnds(ends);
    s.ships.forEach(function (ship) {
      if (!ship.on_table) return;
      var g = svg("g", { class: "ship side-" + ship.side, "data-ship": ship.id, tabindex: 0 });
      var a = headingDeg(ship.heading), f = dir(a), l = dir(a + 140), r = dir(a - 140);
      var x = sx(ship.x), y = sy(ship.y), n = 3.2;
      g.appendChild(svg("circle", { cx: x, cy: y, r: 2.5, class: "base" }));
      g.appendChild(svg("path", {
        d: "M" + (x + f[0] * n) + " " + (y + f[1] * n) + " L" + (x + l[0] * n) + " " + (y + l[1] * n) +
           " L" + (x + r[0] * n) + " " + (y + r[1] * n) + " Z",
        fill: COLOURS[ship.side], class: "hull"
      }));
      // level with its own triangle, just right of its base (at y - 3 the label sat half a
      // formation slot up, beside the ship ahead in the column)
      var label = svg("text", { x: x + 3.6, y: y, "dominant-baseline": "central", class: "label" });
      label.textContent = ship.id;
      g.appendChild(label);
      var title = svg("title");
      title.textContent = ship.id + " " + ship.cls + ": SS " + ship.ss + "/" + ship.ss_max +
        ", shields " + ship.shields + "/" + ship.shields_max + ", engine " + ship.engine +
        ", speed " + ship.speed;
      g.appendChild(title);
      g.addEventListener("mouseenter", function () { showArcs(ship); });
      g.addEventListener("focus", function () { showArcs(ship); });
      g.addEventListener("click", function () { showArcs(ship); });
      g.addEventListener("mouseleave", function () { arcs.innerHTML = ""; });
      board.appendChild(g);
    });
  }

  function showArcs(ship) {
    var arcs = document.getElementById("arcs");
    arcs.innerHTML = "";
    var x = sx(ship.x), y = sy(ship.y), parts = [];
    ship.arcs.forEach(function (arc) {
      var c = headingDeg(ship.heading) + arc.centre, r = arc.range;
      var p = dir(c - 45), q = dir(c + 45);
      // screen y is flipped, so the counter-clockwise sweep draws with sweep-flag 0
      arcs.appendChild(svg("path", {
        d: "M" + x + " " + y + " L" + (x + p[0] * r) + " " + (y + p[1] * r) +
           " A" + r + " " + r + " 0 0 0 " + (x + q[0] * r) + " " + (y + q[1] * r) + " Z",
        class: "arc arc-" + arc.arc, fill: COLOURS[ship.side]
      }));
      parts.push(ARC_NAMES[arc.arc] + " " + arc.range + " cm");
    });
    document.getElementById("hover").textContent = ship.id + " " + ship.cls + " (side " + ship.side +
      "): SS " + ship.ss + "/" + ship.ss_max + ", shields " + ship.shields + "/" + ship.shields_max +
      ", engine " + ship.engine + ", systems " + ship.systems + (ship.in_control ? "" : ", out of control") +
      ". Arcs: " + (parts.join(", ") || "none armed");
  }

  function drawEnds(layer) {
    var d = state.decision;
    d.movers.forEach(function (mover) {
      (d.ends[mover.key] || []).forEach(function (end) {
        var dot = svg("circle", {
          cx: sx(end[1]), cy: sy(end[2]), r: 1.1, class: "end",
          "data-mover": mover.key, "data-move": end[0]
        });
        var t = svg("title");
        t.textContent = mover.key + ": " + end[0];
        dot.appendChild(t);
        dot.addEventListener("click", function () {
          picked[mover.key] = end[0];
          var all = layer.querySelectorAll('.end[data-mover="' + mover.key + '"]');
          for (var i = 0; i < all.length; i++) all[i].classList.toggle("picked", all[i] === dot);
          var sel = document.getElementById("move-" + mover.key);
          if (sel) sel.value = end[0];
          preview();
        });
        layer.appendChild(dot);
      });
    });
  }

  function button(label, order, id) {
    var b = el("button", { type: "button", class: "choice", "data-order": order }, label);
    if (id) b.id = id;
    b.addEventListener("click", function () { send(order); });
    return b;
  }

  function example() {
    for (var i = 0; i < state.choices.length; i++) {
      var m = /e\.g\. (.+?)(?:  \||$)/.exec(state.choices[i]);
      if (m) return m[1].trim();
    }
    var d = state.decision;
    if (d && d.kind === "ActivationDecision") return "ACT " + d.squadrons[0];
    if (d && d.kind === "InitiativeDecision") return "FIRST";
    return "";
  }

  function drawDecision() {
    var s = state, box = document.getElementById("decision"), d = s.decision;
    box.innerHTML = "";
    if (s.over) {
      box.appendChild(el("h2", {}, "Result: " + (s.result.winner ? "side " + s.result.winner + " wins" : "a draw")));
      box.appendChild(el("p", { id: "result" }, s.result.reason));
      var links = el("p");
      links.appendChild(el("a", { href: "/play/" + gid + "/replay", target: "_blank" }, "Watch the replay"));
      links.appendChild(document.createTextNode(" · "));
      links.appendChild(el("a", { href: "/play/" + gid + "/log.jsonl" }, "download the log"));
      box.appendChild(links);
      return;
    }
    box.appendChild(el("h2", {}, "Side " + d.side + ": " + d.kind.replace("Decision", "")));
    if (s.menu && d.kind !== "ReturnDecision") { drawMenu(box, s.menu); return; }
    s.choices.forEach(function (line) { box.appendChild(el("p", { class: "choice-line" }, line)); });
    var row = el("div", { class: "choices" });
    box.appendChild(row);
    if (d.kind === "InitiativeDecision") {
      row.appendChild(button("Move first", "FIRST", "first"));
      row.appendChild(button("Move second", "SECOND", "second"));
    } else if (d.kind === "ActivationDecision") {
      d.squadrons.forEach(function (q) {
        row.appendChild(button("Activate " + q, "ACT " + q));
        (d.forcible[q] || []).forEach(function (p) { row.appendChild(button(q + ", forcing " + p, "ACT " + q + " FORCE " + p)); });
      });
    } else if (d.kind === "OrdersDecision" || d.kind === "ReactionDecision") {
      if (d.kind === "OrdersDecision") {
        d.movers.forEach(function (mover) {
          var label = el("label", { class: "mover" }, (mover.key === "formation" ? "Formation (led by " + mover.ship + ")" : mover.key) + " ");
          var sel = el("select", { id: "move-" + mover.key, class: "move", "data-mover": mover.key });
          var moves = (d.ends[mover.key] || []).map(function (e) { return e[0]; });
          var start = "SPD " + Math.min(Math.max(mover.last, mover.lo), mover.hi) + " T0 T0";
          if (moves.indexOf(start) < 0) moves.unshift(start);
          moves.forEach(function (m) { sel.appendChild(el("option", { value: m }, m)); });
          sel.value = start;
          picked[mover.key] = start;
          sel.addEventListener("change", function () { picked[mover.key] = sel.value; preview(); });
          label.appendChild(sel);
          box.appendChild(label);
        });
        box.appendChild(el("p", { class: "meta" }, "Or click a dot on the board: each is where a manoeuvre ends."));
      }
      d.fire.forEach(function (f) {
        var label = el("label", { class: "firer" }, f.ship + " fires ");
        var sel = el("select", { id: "fire-" + f.ship, class: "fire", "data-ship": f.ship });
        sel.appendChild(el("option", { value: "" }, "hold"));
        f.options.forEach(function (o) {
          var inReach = reachOf(f.ship, o);
          sel.appendChild(el("option", { value: o, "data-reach": inReach ? "yes" : "no" },
            o.replace("@", " arc at ") + (inReach ? " · in reach, " + inReach.p_damage + " to damage" : "")));
        });
        var odds = el("span", { class: "odds meta", id: "odds-" + f.ship });
        sel.addEventListener("change", function () {
          fire[f.ship] = sel.value;
          var r = reachOf(f.ship, sel.value);
          odds.textContent = !sel.value ? "" : r
            ? "exact odds now: " + r.p_damage + " to damage, mean " + r.mean + " (" + Object.keys(r.damage).map(function (k) { return k + ": " + r.damage[k]; }).join(", ") + ")"
            : "not in arc and range now; the lock may still fire during the move";
          preview();
        });
        label.appendChild(sel);
        label.appendChild(odds);
        box.appendChild(label);
      });
      if (d.unit && d.fire.length > 1) box.appendChild(el("p", { class: "meta" }, "The squadron fires as a unit: every firer or none (FPF-FIRE-13)."));
    }
    var text = el("input", { id: "order", class: "order", value: example(), "aria-label": "the order, in the log's text form", autocomplete: "off" });
    box.appendChild(text);
    var actions = orderActions(text);
    if (d.kind === "RepairDecision") actions.insertBefore(button("No repairs", "REPAIR NONE", "no-repairs"), actions.children[1] || null);
    box.appendChild(actions);
    if (d.kind === "OrdersDecision" || d.kind === "ReactionDecision") preview();
  }

  // A decision with a list of legal choices (the advanced game's, a Peak return): each whole
  // order a button; each ship's parts of an order a select; the picked parts make one order.
  function drawMenu(box, menu) {
    box.appendChild(el("p", { class: "choice-line", id: "menu-title" }, menu.title));
    var whole = menu.choices.filter(function (c) { return !c.item; });
    var groups = {}, order = [];
    menu.choices.forEach(function (c) {
      if (!c.item) return;
      if (!groups[c.group]) { groups[c.group] = []; order.push(c.group); }
      groups[c.group].push(c);
    });
    var row = el("div", { class: "choices menu-whole" });
    whole.forEach(function (c) {
      var b = button(c.label, c.order);
      b.title = c.order;
      row.appendChild(b);
    });
    box.appendChild(row);
    var text = el("input", { id: "order", class: "order", value: whole.length ? whole[0].order : "",
      "aria-label": "the order, in the log's text form", autocomplete: "off" });
    function compose() {
      var items = [];
      var sels = box.querySelectorAll("select.part");
      for (var i = 0; i < sels.length; i++) if (sels[i].value) items.push(sels[i].value);
      text.value = items.length ? menu.head + " " + items.join(" ") : (whole.length ? whole[0].order : "");
    }
    if (order.length) {
      box.appendChild(el("p", { class: "meta" }, "Or pick for each ship; the picks make one " + menu.head + " order:"));
      order.forEach(function (g) {
        var label = el("label", { class: "part-pick" }, g + " ");
        var sel = el("select", { class: "part", "data-group": g });
        sel.appendChild(el("option", { value: "" }, "-"));
        groups[g].forEach(function (c) { sel.appendChild(el("option", { value: c.item }, c.label)); });
        sel.addEventListener("change", compose);
        label.appendChild(sel);
        box.appendChild(label);
      });
    }
    box.appendChild(text);
    box.appendChild(orderActions(text));
  }

  // "Give this order" for the text box (Enter too), and undo while there is one to take back.
  function orderActions(text) {
    var actions = el("div", { class: "choices" });
    var sendBtn = el("button", { type: "button", id: "send" }, "Give this order");
    sendBtn.addEventListener("click", function () { send(text.value); });
    text.addEventListener("keydown", function (e) { if (e.key === "Enter") send(text.value); });
    actions.appendChild(sendBtn);
    if (state.undoable > 0) {
      var u = el("button", { type: "button", id: "undo", class: "secondary" }, "Undo my last order");
      u.addEventListener("click", undo);
      actions.appendChild(u);
    }
    return actions;
  }

  function reachOf(ship, option) {
    if (!option) return null;
    var arc = option.split("@")[0], target = option.split("@")[1];
    for (var i = 0; i < state.reach.length; i++) {
      var r = state.reach[i];
      if (r.firer === ship && r.arc === arc && r.target === target) return r;
    }
    return null;
  }

  function preview() {
    var d = state.decision, parts = [], locks = [];
    d.fire.forEach(function (f) { if (fire[f.ship]) locks.push(f.ship + ":" + fire[f.ship]); });
    if (d.kind === "ReactionDecision") {
      parts = ["REACT", d.squadron].concat(locks.length ? locks : ["HOLD"]);
    } else {
      parts = [d.squadron];
      d.movers.forEach(function (m) { parts.push(m.prefix + picked[m.key]); });
      parts = parts.concat(locks.length ? ["FIRE"].concat(locks) : ["HOLD"]);
    }
    document.getElementById("order").value = parts.join(" ");
  }

  function drawReach() {
    var box = document.getElementById("reach");
    box.innerHTML = "";
    box.appendChild(el("h3", {}, "In arc and range now"));
    if (!state.reach.length) { box.appendChild(el("p", { class: "meta" }, "Nothing in arc and range.")); return; }
    var t = el("table", { class: "reach" }), head = el("tr");
    ["Firer", "Arc", "Target", "Range", "P(damage)", "Mean"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    t.appendChild(head);
    state.reach.forEach(function (r) {
      var tr = el("tr");
      [r.firer, r.arc, r.target, r.range_cm + " cm", r.p_damage, String(r.mean)].forEach(function (v) { tr.appendChild(el("td", {}, v)); });
      t.appendChild(tr);
    });
    box.appendChild(t);
  }

  function drawDice() {
    var box = document.getElementById("dice");
    box.innerHTML = "";
    box.appendChild(el("h3", {}, "Volleys this turn"));
    if (!state.volleys.length) { box.appendChild(el("p", { class: "meta" }, "No volley yet this turn.")); return; }
    state.volleys.forEach(function (v) {
      var p = el("p", { class: "volley" }, v.ship + " → " + v.target + ": " + v.weapon + " str " + v.strength +
        " vs shields " + v.shields + " at " + v.range_cm + " cm (needs " + v.needs + ") ");
      v.rolls.forEach(function (r) {
        p.appendChild(el("span", { class: "die" + (r[1] ? " through" : "") }, String(r[0])));
      });
      box.appendChild(p);
    });
  }

  function refuse(body) {
    var box = document.getElementById("refusal");
    box.innerHTML = "";
    box.hidden = false;
    box.appendChild(el("strong", {}, "Refused: "));
    box.appendChild(el("span", { id: "refusal-text" }, body.refused));
    (body.rules || []).forEach(function (r) {
      box.appendChild(document.createTextNode(" "));
      box.appendChild(el("a", { href: r.url, target: "_blank", class: "rule" }, "how we read " + r.id));
    });
  }

  var busy = false;
  function send(order) {
    if (busy || !order) return;
    busy = true;
    root.dataset.busy = "yes";
    document.getElementById("refusal").hidden = true;
    request("POST", "/play/" + gid + "/order", { order: order }).then(function (r) {
      busy = false;
      root.dataset.busy = "no";
      if (r.status === 200) show(r.body); else refuse(r.body);
    });
  }

  function undo() {
    request("POST", "/play/" + gid + "/undo").then(function (r) {
      if (r.status === 200) show(r.body); else refuse(r.body);
    });
  }

  load();
})();
