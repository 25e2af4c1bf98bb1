// The graph viewer of `rpy3 view`: reads the graphs embedded in the page
// (the JSON of view/graphs.rs), draws the function and stage the URL's
// fragment names (#fn=NAME&stage=flow|annotate|rtype) as blocks and
// links with a layered layout, and keeps the sidebar and stage switch in
// step.  No library: the DOM, SVG for the links.
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var dataElement = document.getElementById("rpy3-data");
  var DATA = JSON.parse(dataElement.textContent);
  // the DOM then holds what is shown, not the data behind it
  dataElement.remove();

  var STAGE_NAMES = DATA.stages.map(function (s) { return s.name; });
  var stages = {};
  DATA.stages.forEach(function (s) {
    var byKey = {};
    s.functions.forEach(function (f) { byKey[f.key] = f; });
    stages[s.name] = { stage: s, byKey: byKey };
  });

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function hashFor(key, stage) {
    return "#fn=" + encodeURIComponent(key) + "&stage=" + encodeURIComponent(stage);
  }

  // what the fragment asks for, made valid: a known stage, a function of
  // that stage (the entry when the one asked for has no graph there)
  function currentState() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    var stage = params.get("stage");
    if (!stages[stage]) stage = STAGE_NAMES[0];
    var s = stages[stage];
    var asked = params.get("fn");
    var key = asked;
    var missing = null;
    if (key === null || !s.byKey[key]) {
      if (key !== null) missing = key;
      key = s.stage.entry;
      if (!s.byKey[key] && s.stage.functions.length) key = s.stage.functions[0].key;
    }
    return { stage: stage, key: key, fn: s.byKey[key] || null, missing: missing };
  }

  // ---- the sidebar, the stage switch, the header

  function renderStages(state) {
    var nav = document.getElementById("stages");
    nav.textContent = "";
    STAGE_NAMES.forEach(function (name) {
      var a = el("a", "stage" + (name === state.stage ? " active" : ""), name);
      a.href = hashFor(state.key || "", name);
      a.id = "stage-" + name;
      if (stages[name].stage.error) a.classList.add("failed");
      nav.appendChild(a);
    });
  }

  function renderList(state) {
    var list = document.getElementById("fnlist");
    list.textContent = "";
    stages[state.stage].stage.functions.forEach(function (f) {
      var li = el("li");
      var a = el("a", f.key === state.key ? "current" : "", f.key);
      a.href = hashFor(f.key, state.stage);
      a.title = f.file + ":" + f.line;
      li.appendChild(a);
      list.appendChild(li);
    });
    applySearch();
  }

  function applySearch() {
    var q = document.getElementById("search").value.trim().toLowerCase();
    var shown = 0;
    Array.prototype.forEach.call(document.querySelectorAll("#fnlist li"), function (li) {
      var hit = li.textContent.toLowerCase().indexOf(q) >= 0;
      li.hidden = !hit;
      if (hit) shown += 1;
    });
    document.getElementById("fncount").textContent =
      shown + " of " + stages[currentState().stage].stage.functions.length + " functions";
  }

  function renderHeader(state) {
    var notice = document.getElementById("notice");
    notice.textContent = state.missing === null ? "" :
      "'" + state.missing + "' has no graph at stage " + state.stage + "; showing " + state.key + ".";
    notice.hidden = state.missing === null;
    var err = document.getElementById("stage-error");
    var error = stages[state.stage].stage.error;
    err.textContent = error || "";
    err.hidden = !error;
    var name = document.getElementById("fn-name");
    var info = document.getElementById("fn-info");
    info.textContent = "";
    if (!state.fn) {
      name.textContent = "(no graphs at this stage)";
      return;
    }
    name.textContent = state.fn.key;
    info.appendChild(document.createTextNode(
      state.fn.name + "(" ));
    state.fn.args.forEach(function (v, i) {
      if (i) info.appendChild(document.createTextNode(", "));
      info.appendChild(valueSpan(v));
    });
    info.appendChild(document.createTextNode(")  —  " + state.fn.file + ":" + state.fn.line +
      "  —  " + state.stage));
    document.title = state.fn.key + " [" + state.stage + "] — rpy3 view";
  }

  // ---- blocks

  function valueSpan(v) {
    var s = el("span", v.k ? "c" : "v", v.t);
    if (v.n) s.title = v.n;
    if (!v.k) s.dataset.var = v.t;
    return s;
  }

  function appendValues(parent, values) {
    values.forEach(function (v, i) {
      if (i) parent.appendChild(document.createTextNode(", "));
      parent.appendChild(valueSpan(v));
    });
  }

  function blockElement(b, stage) {
    var div = el("div", "block kind-" + b.kind);
    var head = el("div", "bhead");
    head.appendChild(el("span", "bname", b.name));
    head.appendChild(document.createTextNode("("));
    appendValues(head, b.inputs);
    head.appendChild(document.createTextNode(")"));
    div.appendChild(head);
    b.ops.forEach(function (op) {
      var line = el("div", "op" + (op.callees.length ? " callop" : ""));
      if (op.line) line.title = "line " + op.line;
      line.appendChild(valueSpan(op.res));
      line.appendChild(document.createTextNode(" = "));
      line.appendChild(el("span", "opname", op.op));
      line.appendChild(document.createTextNode("("));
      appendValues(line, op.args);
      line.appendChild(document.createTextNode(")"));
      if (op.callees.length) {
        var callees = el("span", "callees", " \u2192 ");
        op.callees.forEach(function (key, i) {
          if (i) callees.appendChild(document.createTextNode(" | "));
          var a = el("a", "call", key);
          a.href = hashFor(key, stage);
          a.title = "go to " + key;
          callees.appendChild(a);
        });
        line.appendChild(callees);
      }
      div.appendChild(line);
    });
    if (b.switch) {
      var sw = el("div", "switch", "switch ");
      sw.appendChild(valueSpan(b.switch));
      div.appendChild(sw);
    }
    return div;
  }

  // ---- the layered layout

  // layers by longest path over the forward links (a depth-first search
  // from the start block finds the back links of loops), then a few
  // barycenter sweeps to order each layer, then coordinates
  function layout(fn, sizes) {
    var n = fn.blocks.length;
    var succ = [], pred = [];
    for (var i = 0; i < n; i++) { succ.push([]); pred.push([]); }
    var back = fn.links.map(function () { return false; });
    fn.links.forEach(function (l, k) { succ[l.from].push(k); });
    var state = new Array(n).fill(0), post = [];
    function dfs(u) {
      state[u] = 1;
      succ[u].forEach(function (k) {
        var v = fn.links[k].to;
        if (state[v] === 1) back[k] = true;
        else if (state[v] === 0) dfs(v);
      });
      state[u] = 2;
      post.push(u);
    }
    for (var s = 0; s < n; s++) if (state[s] === 0) dfs(s);
    fn.links.forEach(function (l, k) { if (!back[k]) pred[l.to].push(l.from); });
    var layer = new Array(n).fill(0);
    post.slice().reverse().forEach(function (u) {
      succ[u].forEach(function (k) {
        if (!back[k]) layer[fn.links[k].to] = Math.max(layer[fn.links[k].to], layer[u] + 1);
      });
    });
    var nlayers = Math.max.apply(null, layer) + 1;
    var layers = [];
    for (var L = 0; L < nlayers; L++) layers.push([]);
    for (var u = 0; u < n; u++) layers[layer[u]].push(u);
    var pos = new Array(n).fill(0);
    function renumber() { layers.forEach(function (ls) { ls.forEach(function (u, j) { pos[u] = j; }); }); }
    renumber();
    var fsucc = succ.map(function (ks) {
      return ks.filter(function (k) { return !back[k]; }).map(function (k) { return fn.links[k].to; });
    });
    function bary(u, nbrs) {
      if (!nbrs.length) return pos[u];
      return nbrs.reduce(function (a, v) { return a + pos[v]; }, 0) / nbrs.length;
    }
    for (var sweep = 0; sweep < 4; sweep++) {
      var down = sweep % 2 === 0;
      for (var li = 0; li < nlayers; li++) {
        var ls = layers[down ? li : nlayers - 1 - li];
        var key = {};
        ls.forEach(function (u) { key[u] = bary(u, down ? pred[u] : fsucc[u]); });
        ls.sort(function (a, b) { return key[a] - key[b] || a - b; });
        renumber();
      }
    }
    var GAP_X = 40, GAP_Y = 70, MARGIN = 20;
    var x = new Array(n).fill(0), y = new Array(n).fill(0);
    var top = MARGIN;
    layers.forEach(function (ls) {
      var h = 0, right = -Infinity;
      ls.forEach(function (u) {
        var want = MARGIN;
        if (pred[u].length) {
          var c = pred[u].reduce(function (a, v) { return a + x[v] + sizes[v].w / 2; }, 0) / pred[u].length;
          want = c - sizes[u].w / 2;
        } else if (right > -Infinity) {
          want = right + GAP_X;
        }
        x[u] = Math.max(want, right + GAP_X, MARGIN);
        right = x[u] + sizes[u].w;
        y[u] = top;
        h = Math.max(h, sizes[u].h);
      });
      top += h + GAP_Y;
    });
    var minX = Math.min.apply(null, x);
    for (var v = 0; v < n; v++) x[v] += MARGIN - minX;
    return { x: x, y: y, back: back };
  }

  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (a) { e.setAttribute(a, attrs[a]); });
    return e;
  }

  function linkLabel(l, blocks) {
    var args = l.args.map(function (v) { return v.t; }).join(", ");
    var text = blocks[l.to].name + "(" + args + ")";
    return l.case === null ? text : l.case + ": " + text;
  }

  function shorten(s, n) { return s.length <= n ? s : s.slice(0, n - 1) + "\u2026"; }

  function drawGraph(fn, stage) {
    var graph = document.getElementById("graph");
    graph.textContent = "";
    if (!fn) return;
    var elements = fn.blocks.map(function (b, i) {
      var e = blockElement(b, stage);
      e.id = "block-" + i;
      e.dataset.block = b.name;
      graph.appendChild(e);
      return e;
    });
    var sizes = elements.map(function (e) { return { w: e.offsetWidth, h: e.offsetHeight }; });
    var at = layout(fn, sizes);
    var width = 0, height = 0;
    elements.forEach(function (e, i) {
      e.style.left = at.x[i] + "px";
      e.style.top = at.y[i] + "px";
      width = Math.max(width, at.x[i] + sizes[i].w);
      height = Math.max(height, at.y[i] + sizes[i].h);
    });
    var svg = svgEl("svg", { "class": "links" });
    var defs = svgEl("defs", {});
    var marker = svgEl("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5",
      markerWidth: "8", markerHeight: "8", orient: "auto-start-reverse" });
    marker.appendChild(svgEl("path", { d: "M 0 0 L 10 5 L 0 10 z", "class": "arrowhead" }));
    defs.appendChild(marker);
    svg.appendChild(defs);
    var outCount = fn.blocks.map(function () { return 0; });
    var outIndex = fn.links.map(function (l) { return outCount[l.from]++; });
    var inCount = fn.blocks.map(function () { return 0; });
    var inIndex = fn.links.map(function (l, k) { return at.back[k] ? 0 : inCount[l.to]++; });
    var backs = 0;
    fn.links.forEach(function (l, k) {
      var a = l.from, b = l.to, d, lx, ly;
      if (at.back[k] || at.y[b] <= at.y[a]) {
        var sx = at.x[a] + sizes[a].w, sy = at.y[a] + sizes[a].h / 2;
        var ex = at.x[b] + sizes[b].w, ey = at.y[b] + Math.min(20, sizes[b].h / 2);
        var cx = Math.max(sx, ex) + 60 + 25 * (backs++);
        d = "M " + sx + " " + sy + " C " + cx + " " + sy + ", " + cx + " " + ey + ", " + ex + " " + ey;
        // the curve's rightmost point, at its middle
        lx = (sx + ex) / 8 + 0.75 * cx + 4; ly = (sy + ey) / 2;
        width = Math.max(width, cx + 10);
      } else {
        var sx2 = at.x[a] + sizes[a].w * (outIndex[k] + 1) / (outCount[a] + 1);
        var sy2 = at.y[a] + sizes[a].h;
        var ex2 = at.x[b] + sizes[b].w * (inIndex[k] + 1) / (inCount[b] + 1);
        var ey2 = at.y[b];
        var dy = Math.max(30, (ey2 - sy2) / 2);
        d = "M " + sx2 + " " + sy2 + " C " + sx2 + " " + (sy2 + dy) + ", " + ex2 + " " + (ey2 - dy) +
          ", " + ex2 + " " + ey2;
        lx = (sx2 + ex2) / 2 + 4; ly = (sy2 + ey2) / 2;
      }
      var group = svgEl("g", { "class": "link" + (at.back[k] ? " back" : "") });
      group.appendChild(svgEl("path", { d: d, "marker-end": "url(#arrow)" }));
      var full = linkLabel(l, fn.blocks);
      var label = svgEl("text", { x: lx, y: ly });
      label.textContent = shorten(full, 48);
      var title = svgEl("title", {});
      title.textContent = full;
      group.appendChild(title);
      group.appendChild(label);
      svg.appendChild(group);
      width = Math.max(width, lx + 7 * Math.min(full.length, 48));
    });
    svg.setAttribute("width", width + 20);
    svg.setAttribute("height", height + 20);
    graph.style.width = (width + 20) + "px";
    graph.style.height = (height + 20) + "px";
    graph.insertBefore(svg, graph.firstChild);
  }

  // ---- wiring

  function render() {
    var state = currentState();
    renderStages(state);
    renderList(state);
    renderHeader(state);
    drawGraph(state.fn, state.stage);
    document.body.dataset.stage = state.stage;
    document.body.dataset.fn = state.key || "";
  }

  document.getElementById("title").textContent = DATA.title;
  var search = document.getElementById("search");
  search.addEventListener("input", applySearch);
  search.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    var first = document.querySelector("#fnlist li:not([hidden]) a");
    if (first) location.hash = first.getAttribute("href");
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== search) {
      e.preventDefault();
      search.focus();
    }
  });
  // hovering a variable marks its every use
  document.getElementById("graph").addEventListener("mouseover", function (e) {
    var name = e.target.dataset && e.target.dataset.var;
    Array.prototype.forEach.call(document.querySelectorAll(".v.same"), function (s) {
      s.classList.remove("same");
    });
    if (!name) return;
    Array.prototype.forEach.call(document.querySelectorAll("#graph .v"), function (s) {
      if (s.dataset.var === name) s.classList.add("same");
    });
  });
  window.addEventListener("hashchange", render);
  // a search in the fragment (&q=TEXT) fills the box, so a filtered list
  // can be linked to
  var asked = new URLSearchParams(location.hash.replace(/^#/, "")).get("q");
  if (asked) search.value = asked;
  render();
})();
