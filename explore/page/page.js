// The counterexample page's behaviour: step through the schedule with the
// arrow keys or the slider, highlight the current step and its source,
// show the state of the locations after it, and draw the weak mode's
// arrows between rows. It opens at the failure (the last step); #start
// opens it at step 1, #step-N at step N, #stale at the first stale read. With the URL fragment #selftest it presses the
// arrow keys itself and writes what happened into #selftest, so that a
// headless browser's dumped DOM shows whether the keys work.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("trace-data").textContent);
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.step"));
  var n = rows.length;
  var slider = document.getElementById("slider");
  var cur = 1;
  var selftest = location.hash === "#selftest";
  var noScroll = selftest;

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  // The value of every location after step k: the last value written, or,
  // before any write, the first value read.
  function stateAfter(k) {
    var vals = {}, order = [], changed = {};
    for (var i = 0; i < k && i < data.steps.length; i++) {
      var s = data.steps[i];
      if (!s.loc) continue;
      var name = data.locations[s.loc - 1];
      if (!(name in vals)) order.push(name);
      if (s.value) {
        vals[name] = s.value;
        if (i === k - 1) changed[name] = true;
      } else if (s.read && !(name in vals && vals[name] !== undefined)) {
        vals[name] = s.read;
      }
    }
    return { vals: vals, order: order, changed: changed };
  }

  function renderState(k) {
    var st = stateAfter(k);
    var h = "<table>";
    st.order.forEach(function (name) {
      h += '<tr data-loc="' + esc(name) + '"' + (st.changed[name] ? ' class="changed"' : "") +
        "><td>" + esc(name) + '</td><td class="value">' + esc(st.vals[name] === undefined ? "?" : st.vals[name]) + "</td></tr>";
    });
    var s = data.steps[k - 1], views = (s && s.views) || [];
    var v = "";
    views.forEach(function (x) { v += '<div class="view">' + esc(x) + "</div>"; });
    document.getElementById("views-body").innerHTML = v;
    document.getElementById("views").style.display = views.length ? "" : "none";
    document.getElementById("state-body").innerHTML = h + "</table>";
  }

  function renderSource(k) {
    var s = data.steps[k - 1];
    var ctx = data.sources[s.at];
    var el = document.getElementById("source-body");
    if (!ctx || !ctx.lines) {
      el.innerHTML = "<pre>" + esc(s.at) + "</pre>";
      return;
    }
    var line = parseInt(s.at.slice(s.at.lastIndexOf(":") + 1), 10);
    var h = "<div>" + esc(s.at) + "</div><pre>";
    ctx.lines.forEach(function (l, i) {
      var no = ctx.first + i;
      var text = (no + "    ").slice(0, 5) + l;
      h += no === line ? '<span class="hl">' + esc(text) + "</span>" : esc(text) + "\n";
    });
    el.innerHTML = h + "</pre>";
  }

  function show(k) {
    k = Math.max(1, Math.min(n, k));
    cur = k;
    rows.forEach(function (r, i) {
      r.classList.toggle("current", i === k - 1);
      r.classList.toggle("past", i < k - 1);
      r.classList.toggle("future", i > k - 1);
    });
    slider.value = k;
    document.body.setAttribute("data-current", k);
    document.getElementById("pos").textContent = "step " + k + " of " + n;
    renderState(k);
    renderSource(k);
    Array.prototype.forEach.call(document.querySelectorAll("#graph g.node"), function (g) {
      g.classList.toggle("current", parseInt(g.getAttribute("data-step"), 10) === k);
    });
    if (!noScroll && rows[k - 1]) {
      var pane = document.getElementById("trace"), pr = pane.getBoundingClientRect();
      var r = rows[k - 1].getBoundingClientRect();
      if (r.top < pr.top + 30 || r.bottom > pr.bottom) {
        pane.scrollTop += r.top - pr.top - pane.clientHeight / 2;
      }
    }
  }

  document.addEventListener("keydown", function (e) {
    switch (e.key) {
      case "ArrowRight": case "ArrowDown": show(cur + 1); break;
      case "ArrowLeft": case "ArrowUp": show(cur - 1); break;
      case "Home": show(1); break;
      case "End": show(n); break;
      case "g": setGraph(!document.body.classList.contains("graph")); break;
      case "p": setPlay(!document.body.classList.contains("play")); break;
      case "u": if (document.body.classList.contains("play")) document.getElementById("play-undo").click(); break;
      case "f": if (document.body.classList.contains("play")) document.getElementById("play-forward").click(); break;
      default: return;
    }
    if (e.preventDefault) e.preventDefault();
  });
  var all = document.getElementById("all-arrows");
  if (all) all.addEventListener("change", function () {
    document.body.classList.toggle("all-arrows", all.checked);
    drawArrows();
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("prev").addEventListener("click", function () { show(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { show(cur + 1); });
  document.getElementById("from-start").addEventListener("click", function () { show(1); });
  document.getElementById("to-failure").addEventListener("click", function () { show(n); });
  rows.forEach(function (r) {
    r.addEventListener("click", function () { show(parseInt(r.getAttribute("data-step"), 10)); });
  });

  // The arrows: from the cell of the step that wrote (or released) to the
  // cell of the step that read (or acquired).
  function drawArrows() {
    var svg = document.getElementById("arrows");
    var pane = document.getElementById("trace");
    var box = pane.getBoundingClientRect();
    // Positions within the pane's content, whatever it is scrolled to.
    var dx = pane.scrollLeft - box.left, dy = pane.scrollTop - box.top;
    svg.setAttribute("width", box.width);
    svg.setAttribute("height", document.getElementById("steps").getBoundingClientRect().height);
    Array.prototype.forEach.call(svg.querySelectorAll("path.arrow"), function (p) {
      var a = cellOf(p.getAttribute("data-from")), b = cellOf(p.getAttribute("data-to"));
      if (!a || !b) return;
      var ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      if (ra.height === 0 || rb.height === 0) { // a folded row
        p.setAttribute("data-folded", "true");
        return;
      }
      // From the left edge of one step's cell to the left edge of the
      // other's, bowing right into the columns, so that no arrow leaves
      // the table.
      var x1 = ra.left + dx + 3, y1 = ra.top + dy + 9;
      var x2 = rb.left + dx + 3, y2 = rb.top + dy + 9;
      var bend = 20 + Math.min(140, Math.abs(y2 - y1) / 5);
      p.setAttribute("d", "M" + x1 + "," + y1 + " C" + (x1 + bend) + "," + y1 + " " + (x2 + bend) + "," + y2 + " " + x2 + "," + y2);
    });
  }
  function cellOf(step) {
    var r = document.getElementById("step-" + step);
    return r && r.querySelector("td.cur");
  }


  // The execution graph (#graph): the steps as events, one column per
  // goroutine, top to bottom in execution order, with program order,
  // reads-from, modification order (per location: stores in the order
  // the model placed them), synchronises-with, the missing
  // synchronises-with edges and data races as edges. "Relevant steps
  // only" keeps the events the failure depends on (relevantSteps).
  var SVGNS = document.getElementById("arrows").namespaceURI; // the SVG namespace, without a URL in the page
  function svgEl(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // The failing step; the races, the missing edges and the stale reads;
  // the stores they read or skipped and the releases they synchronise
  // with; and each preemption's two steps.
  function relevantSteps() {
    var keep = {}, last = data.steps.length;
    function add(k) { if (k > 0 && k <= last) keep[k] = true; }
    add(last);
    data.steps.forEach(function (s) {
      // A preemption: the step it let run and the preempted
      // goroutine's step before it.
      if (s.preempt) { add(s.n); add(s.n - 1); }
      if (s.race || s.missing || s.stale || s.n === last) {
        add(s.n); add(s.race || 0); add(s.reads_from);
        (s.skipped || []).forEach(add); (s.sw || []).forEach(add);
      }
    });
    return keep;
  }
  // modOrder is, per location, its stores in modification order.
  function modOrder() {
    var mo = {};
    data.steps.forEach(function (s) {
      if (!s.loc || !s.value) return;
      var l = mo[s.loc] || (mo[s.loc] = []);
      l.splice(l.length - (s.before || 0), 0, s.n);
    });
    return mo;
  }
  function drawGraph() {
    var svg = document.getElementById("graph");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var only = document.getElementById("relevant").checked;
    var keep = only ? relevantSteps() : null;
    var colW = 250, rowH = 28, top = 30, left = 40, pos = {}, row = 0;
    var defs = svgEl("defs", {}, svg);
    ["po", "rf", "mo", "sw", "missing", "race", "sc"].forEach(function (c) {
      var m = svgEl("marker", { id: "g-" + c, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" }, defs);
      svgEl("path", { d: "M0,0 L10,5 L0,10 z", "class": "head-" + c }, m);
    });
    data.goroutines.forEach(function (g, i) {
      var t = svgEl("text", { x: left + i * colW, y: 16, "class": "col" }, svg);
      t.textContent = g;
    });
    var nodes = svgEl("g", {}, svg), edges = svgEl("g", {}, svg);
    svg.insertBefore(edges, nodes);
    data.steps.forEach(function (s) {
      if (keep && !keep[s.n]) return;
      var x = left + s.g * colW, y = top + row * rowH;
      row++;
      pos[s.n] = { x: x, y: y };
      var cls = "node" + (s.race ? " race" : "") + (s.missing ? " missing" : "") + (s.stale ? " stale" : "") + (s.n === cur ? " current" : "");
      var g = svgEl("g", { "class": cls, "data-step": s.n, "data-goroutine": s.g }, nodes);
      svgEl("rect", { x: x - 4, y: y - 12, width: colW - 30, height: 18, rx: 3 }, g);
      var t = svgEl("text", { x: x, y: y + 1 }, g);
      var label = s.n + ": " + (s.loc ? data.locations[s.loc - 1] + " " : "") + s.text;
      t.textContent = label.length > 34 ? label.slice(0, 33) + "\u2026" : label;
      var title = svgEl("title", {}, g);
      title.textContent = "step " + s.n + " (" + data.goroutines[s.g] + "): " + (s.loc ? data.locations[s.loc - 1] + " " : "") + s.text + " at " + s.at;
      g.addEventListener("click", function () { show(s.n); });
    });
    svg.setAttribute("width", left + data.goroutines.length * colW);
    svg.setAttribute("height", top + row * rowH + 10);
    function edge(cls, a, b) {
      var p = pos[a], q = pos[b];
      if (!p || !q || a === b) return;
      var d;
      if (cls === "po") {
        d = "M" + (p.x + 8) + "," + (p.y + 6) + " L" + (q.x + 8) + "," + (q.y - 12);
      } else {
        // From the right end of one event to the left end of the
        // other (or, in one column, bowing right).
        var x1 = p.x + colW - 40, x2 = q.x - 4;
        if (p.x === q.x) x2 = q.x + colW - 40;
        var bend = p.x === q.x ? 40 + Math.min(120, Math.abs(q.y - p.y) / 4) : 0;
        d = "M" + x1 + "," + (p.y - 3) + " C" + (x1 + bend + 20) + "," + (p.y - 3) + " " + (x2 + (p.x === q.x ? bend + 20 : -20)) + "," + (q.y - 3) + " " + x2 + "," + (q.y - 3);
      }
      svgEl("path", { "class": "edge " + cls, "data-from": a, "data-to": b, d: d, "marker-end": "url(#g-" + cls + ")" }, edges);
    }
    var lastOf = {};
    data.steps.forEach(function (s) {
      if (!pos[s.n]) return;
      if (lastOf[s.g]) edge("po", lastOf[s.g], s.n);
      lastOf[s.g] = s.n;
      if (s.reads_from > 0) edge(s.missing ? "missing" : "rf", s.reads_from, s.n);
      (s.sw || []).forEach(function (f) { edge("sw", f, s.n); });
      if (s.race && s.race < s.n) edge("race", s.race, s.n);
    });
    var mo = modOrder();
    Object.keys(mo).forEach(function (l) {
      var seq = mo[l].filter(function (k) { return pos[k]; });
      for (var i = 1; i < seq.length; i++) edge("mo", seq[i - 1], seq[i]);
    });
    // The weak mode's seq_cst order (data.sc: one the execution is
    // consistent with), between the seq_cst events shown.
    var sc = (data.sc || []).filter(function (k) { return pos[k]; });
    for (var j = 1; j < sc.length; j++) edge("sc", sc[j - 1], sc[j]);
    // The graph opens where the page is: at the current step (the
    // failure, unless the learner moved).
    // (After the load: until then the pane may not have its height, and
    // the fragment #graph scrolls the pane to the graph's top.)
    var c = pos[cur], pane = document.getElementById("graph-pane");
    function scroll() { pane.scrollTop = Math.max(0, c.y - pane.clientHeight / 2); }
    if (!c) return;
    if (document.readyState === "complete") setTimeout(scroll, 0);
    else window.addEventListener("load", function () { setTimeout(scroll, 0); });
  }
  function setGraph(on) {
    document.body.classList.toggle("graph", on);
    if (on) drawGraph();
  }
  document.getElementById("show-graph").addEventListener("click", function () {
    setGraph(!document.body.classList.contains("graph"));
  });
  document.getElementById("relevant").addEventListener("change", drawGraph);


  // Play mode (#play): the learner replays the schedule choice by choice
  // on the play tree (data.play, explore/internal/engine/play.go): the
  // recorded run and, for each of its decisions and each other choice
  // there, a run the engine traced with that choice taken. At each step
  // the buttons are the goroutines that could go next (and in the weak
  // mode the stores a read could read); a choice no run of the tree took
  // is disabled. "#play:g1,g0,s1,undo,fwd" opens play mode and clicks
  // those buttons in turn (a test's way in), logging into #play-log.
  var play = data.play, ps = null, playHistory = [];
  function playInit() { ps = { run: 0, pos: 0, d: 0, picked: false }; playHistory = []; }
  function playRunStep(ri, k) {
    var r = play.runs[ri];
    while (k < r.from) { ri = r.parent; r = play.runs[ri]; }
    return { s: r.steps[k - r.from], run: ri };
  }
  function playLength(ri) { var r = play.runs[ri]; return r.from - 1 + r.steps.length; }
  function playPending() {
    var d = play.runs[ps.run].decisions[ps.d];
    return d && d.step === ps.pos ? d : null;
  }
  function gName(ri, g) { var gs = play.runs[ri].goroutines; return gs[g] || ("goroutine " + g); }
  // The buttons at this point: {choice, label, enabled, recorded}.
  function playOptions() {
    var d = playPending(), out = [];
    // The run's last step ends the play (a decision after it, before
    // the failure, shows nothing more).
    if (ps.pos >= playLength(ps.run)) return out;
    if (d && (d.kind === "g" || ps.picked)) {
      d.options.forEach(function (o) {
        var ok = o === d.chosen || (d.children && d.children[o] !== undefined);
        var label = d.kind === "g" ? gName(ps.run, o) + (o === d.timer ? " (its timeout fires)" : "") :
          d.place ? (o === 0 ? "the store goes last" : "the store goes before the " + o + " newest") :
          (o === 0 ? "read the latest store" : "read the store " + o + " back");
        out.push({ choice: d.kind + o, label: label, enabled: ok, recorded: ps.run === 0 && o === d.chosen });
      });
      return out;
    }
    if (ps.pos < playLength(ps.run)) {
      var g = playRunStep(ps.run, ps.pos + 1).s.g;
      out.push({ choice: "g" + g, label: gName(ps.run, g) + " (the only one that can go)", enabled: true, recorded: ps.run === 0, forced: true });
    }
    return out;
  }
  function playChoose(choice, keep) {
    var opts = playOptions(), opt = null;
    opts.forEach(function (o) { if (o.choice === choice && o.enabled) opt = o; });
    if (!opt) return false;
    if (!keep) playHistory.push({ run: ps.run, pos: ps.pos, d: ps.d, picked: ps.picked });
    if (!opt.forced) {
      var d = playPending(), o = parseInt(choice.slice(1), 10);
      if (o !== d.chosen) ps.run = d.children[o];
      ps.d++;
    }
    ps.picked = true;
    // The chosen step shows once no other choice comes before it (a
    // store choice of the weak mode comes after its goroutine's).
    var next = playPending();
    if (!next) {
      ps.pos++;
      ps.picked = false;
    }
    return true;
  }
  function renderPlay() {
    if (!play) return;
    var r = play.runs[ps.run], gs = r.goroutines;
    var head = "<tr><th>#</th>";
    gs.forEach(function (g, i) { head += '<th class="goroutine" data-goroutine="' + i + '">' + esc(g) + "</th>"; });
    document.querySelector("#play-steps thead").innerHTML = head + "</tr>";
    var h = "";
    for (var k = 1; k <= ps.pos; k++) {
      var x = playRunStep(ps.run, k), s = x.s;
      h += '<tr class="play-step' + (x.run !== 0 ? " off-record" : "") + '" data-step="' + k + '" data-goroutine="' + s.g + '" data-run="' + x.run + '"><td class="n">' + k + "</td>";
      for (var g = 0; g < gs.length; g++) {
        h += g === s.g ? '<td class="cur"><div class="op">' + esc(play.strings[s.t]) + '</div><div class="src">' + esc(play.strings[s.a]) + "</div></td>" : "<td></td>";
      }
      h += "</tr>";
    }
    document.querySelector("#play-steps tbody").innerHTML = h;
    var c = "";
    var opts = playOptions();
    opts.forEach(function (o) {
      c += '<button type="button" class="choice' + (o.recorded ? " recorded" : "") + '" data-choice="' + o.choice + '"' +
        (o.enabled ? "" : ' disabled title="no run of this page took this choice"') + ">" + esc(o.label) + "</button>";
    });
    var el = document.getElementById("play-choices");
    el.innerHTML = opts.length ? "next: " + c : "";
    Array.prototype.forEach.call(el.querySelectorAll("button"), function (b) {
      b.addEventListener("click", function () { if (playChoose(b.getAttribute("data-choice"))) renderPlay(); });
    });
    var st = document.getElementById("play-status"), state = "choosing", text;
    if (!opts.length) {
      state = r.fails ? "failure" : "passed";
      text = r.fails ? (ps.run === 0 ? "the failure is reached: " : "a failure is reached on another path: ") + r.outcome :
        "the run ends and passes: the failure needs other choices";
    } else {
      text = "step " + ps.pos + ", " + playHistory.length + " choice(s) made" + (ps.run === 0 ? ", on the recorded schedule" : ", off the recorded schedule");
    }
    st.setAttribute("data-state", state);
    st.textContent = text;
    document.body.setAttribute("data-play-pos", ps.pos);
    document.body.setAttribute("data-play-run", ps.run);
    document.getElementById("play-undo").disabled = playHistory.length === 0;
    var rows = document.querySelectorAll("#play-steps tr.play-step");
    if (rows.length && !noScroll) rows[rows.length - 1].scrollIntoView({ block: "nearest" });
  }
  function playForward() {
    var before = playHistory.length, moved = false;
    for (;;) {
      var opts = playOptions().filter(function (o) { return o.enabled; });
      if (opts.length !== 1) break;
      if (!moved) playHistory.push({ run: ps.run, pos: ps.pos, d: ps.d, picked: ps.picked });
      playChoose(opts[0].choice, true);
      moved = true;
    }
    return playHistory.length > before;
  }
  function setPlay(on) {
    document.body.classList.toggle("play", on);
    if (on) document.body.classList.remove("graph");
    if (on && play) renderPlay();
  }
  if (play) {
    playInit();
    document.getElementById("play-undo").addEventListener("click", function () {
      if (playHistory.length) { ps = playHistory.pop(); renderPlay(); }
    });
    document.getElementById("play-forward").addEventListener("click", function () { playForward(); renderPlay(); });
    document.getElementById("play-restart").addEventListener("click", function () { playInit(); renderPlay(); });
  }
  document.getElementById("show-play").addEventListener("click", function () {
    setPlay(!document.body.classList.contains("play"));
  });

  slider.max = n;
  // The page opens at the failure, the last step; #start at step 1,
  // #step-N at step N, #stale at the first stale read.
  var first = n, m = /^#step-(\d+)$/.exec(location.hash);
  if (m) first = parseInt(m[1], 10);
  if (location.hash === "#start") first = 1;
  // #graph opens the execution graph; #graph-relevant with the relevant
  // steps only.
  if (location.hash === "#graph-relevant") document.getElementById("relevant").checked = true;
  if (location.hash === "#stale") {
    var s = document.querySelector('tr.step[data-stale="true"]');
    if (s) first = parseInt(s.getAttribute("data-step"), 10);
    // Fold the rows well before it, so that the store it read is near
    // it in the pane.
    var rf = s ? parseInt(s.getAttribute("data-reads-from"), 10) : first;
    var fold = Math.min(first - 6, rf > 0 ? rf - 1 : first), body = document.querySelector("#steps tbody"), hidden = 0;
    Array.prototype.forEach.call(body.children, function (r) {
      var k = parseInt(r.getAttribute("data-step") || "-1", 10);
      if (k >= 0 && k < fold) { r.style.display = "none"; hidden = k; }
      else if (k < 0 && hidden > 0 && r.nextElementSibling && parseInt(r.nextElementSibling.getAttribute("data-step"), 10) < fold) r.style.display = "none";
    });
    if (hidden > 0) {
      var note = document.createElement("tr");
      note.className = "init";
      note.innerHTML = '<td class="n"></td><td colspan="' + data.goroutines.length + '">steps 0 to ' + hidden + " folded (open the page without #stale to see them)</td>";
      body.insertBefore(note, body.firstChild);
    }
  }
  show(first);
  drawArrows();
  if (location.hash === "#graph" || location.hash === "#graph-relevant") setGraph(true);
  window.addEventListener("resize", drawArrows);
  var pm = /^#play(?::(.*))?$/.exec(location.hash);
  if (pm) {
    setPlay(true);
    if (pm[1] && play) {
      var plog = [], pok = true;
      pm[1].split(",").forEach(function (c) {
        if (!pok) return;
        var b = c === "undo" ? document.getElementById("play-undo") : c === "fwd" ? document.getElementById("play-forward") :
          document.querySelector('#play-choices button[data-choice="' + c + '"]');
        if (!b || b.disabled) { pok = false; plog.push(c + ": no enabled button"); return; }
        b.click();
        plog.push(c + " -> step " + ps.pos + " run " + ps.run);
      });
      var pl = document.createElement("pre");
      pl.id = "play-log";
      pl.setAttribute("data-result", pok ? "pass" : "fail");
      pl.textContent = plog.join("\n");
      document.getElementById("play-pane").appendChild(pl);
    }
  }

  if (selftest) {
    var out = [], ok = true;
    function press(key, want) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: key, bubbles: true }));
      var hl = document.querySelector("tr.step.current");
      var got = hl ? parseInt(hl.getAttribute("data-step"), 10) : -1;
      var good = got === want && document.querySelectorAll("tr.step.current").length === 1;
      ok = ok && good;
      out.push(key + " -> " + got + " (want " + want + ")" + (good ? "" : " WRONG"));
    }
    show(1);
    var m = Math.min(n, 4);
    for (var i = 2; i <= m; i++) press("ArrowRight", i);
    press("ArrowLeft", Math.max(1, m - 1));
    press("End", n);
    press("ArrowRight", n);
    press("Home", 1);
    press("ArrowLeft", 1);
    var st = document.getElementById("selftest");
    st.setAttribute("data-result", ok ? "pass" : "fail");
    st.textContent = out.join("\n");
  }
})();
