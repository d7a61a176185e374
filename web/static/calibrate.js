/* Calibration from the phone: tap the area's corners and the back wall's ends, drag a box round
   a die, all in the frame's own pixels; POST /api/calibration writes them and answers with the
   picture `tablectl calibrate` would draw. */
(function () {
  "use strict";
  var root = document.getElementById("calibrate");
  if (!root) return;
  var token = document.querySelector('meta[name="csrf-token"]').content;
  var img = document.getElementById("frame"), svg = document.getElementById("marks");
  var out = document.getElementById("calib-result"), drawn = document.getElementById("drawn");
  var help = document.getElementById("step-help"), figures = document.getElementById("figures");
  var state = { area: [], wall: [], die: null }, step = "area", drag = null;

  function fresh() {
    img.src = root.dataset.frame + "?t=" + Date.now();
  }
  img.addEventListener("load", function () {
    svg.setAttribute("viewBox", "0 0 " + img.naturalWidth + " " + img.naturalHeight);
    draw();
  });

  function at(ev) {
    var p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    var q = p.matrixTransform(svg.getScreenCTM().inverse());
    return [Math.round(q.x * 10) / 10, Math.round(q.y * 10) / 10];
  }

  function dieSize() {
    if (!state.die) return null;
    var w = Math.abs(state.die[1][0] - state.die[0][0]), h = Math.abs(state.die[1][1] - state.die[0][1]);
    return Math.round((w + h) / 2 * 10) / 10;
  }

  function draw() {
    svg.querySelector(".area").setAttribute("points", state.area.map(function (p) { return p.join(","); }).join(" "));
    var line = svg.querySelector(".wall"), w = state.wall;
    line.setAttribute("x1", w[0] ? w[0][0] : 0); line.setAttribute("y1", w[0] ? w[0][1] : 0);
    line.setAttribute("x2", w[1] ? w[1][0] : (w[0] ? w[0][0] : 0)); line.setAttribute("y2", w[1] ? w[1][1] : (w[0] ? w[0][1] : 0));
    var r = svg.querySelector(".diebox"), d = state.die;
    if (d) {
      r.setAttribute("x", Math.min(d[0][0], d[1][0])); r.setAttribute("y", Math.min(d[0][1], d[1][1]));
      r.setAttribute("width", Math.abs(d[1][0] - d[0][0])); r.setAttribute("height", Math.abs(d[1][1] - d[0][1]));
    } else { r.setAttribute("width", 0); r.setAttribute("height", 0); }
    var g = svg.querySelector(".pts"), rad = Math.max(4, (img.naturalWidth || 640) / 120);
    g.textContent = "";
    state.area.concat(state.wall).forEach(function (p) {
      var c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]); c.setAttribute("r", rad); c.setAttribute("class", "pt");
      g.appendChild(c);
    });
    figures.textContent = "area " + state.area.length + " · wall " + state.wall.length + "/2 · die " + (dieSize() || "–") + " px";
  }

  svg.addEventListener("pointerdown", function (ev) {
    ev.preventDefault();
    var p = at(ev);
    if (step === "area") state.area.push(p);
    else if (step === "wall") { if (state.wall.length >= 2) state.wall = []; state.wall.push(p); }
    else { drag = p; state.die = [p, p]; svg.setPointerCapture(ev.pointerId); }
    draw();
  });
  svg.addEventListener("pointermove", function (ev) {
    if (step === "die" && drag) { state.die = [drag, at(ev)]; draw(); }
  });
  svg.addEventListener("pointerup", function () { drag = null; });

  Array.prototype.forEach.call(root.querySelectorAll("[data-step]"), function (b) {
    b.addEventListener("click", function () {
      step = b.dataset.step;
      Array.prototype.forEach.call(root.querySelectorAll("[data-step]"), function (o) { o.setAttribute("aria-pressed", String(o === b)); });
      help.textContent = help.dataset[step];
    });
  });
  document.getElementById("clear").addEventListener("click", function () {
    if (step === "area") state.area = []; else if (step === "wall") state.wall = []; else state.die = null;
    draw();
  });
  document.getElementById("fresh").addEventListener("click", fresh);

  function say(kind, title, lines) {
    out.className = "result " + kind;
    out.textContent = "";
    var b = document.createElement("strong"); b.textContent = title; out.appendChild(b);
    (lines || []).forEach(function (t) { var s = document.createElement("span"); s.textContent = t; out.appendChild(s); });
  }

  document.getElementById("write").addEventListener("click", function () {
    if (state.area.length < 3) return say("error", root.dataset.needArea);
    if (state.wall.length !== 2) return say("error", root.dataset.needWall);
    if (!dieSize()) return say("error", root.dataset.needDie);
    fetch(root.dataset.api, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
      body: JSON.stringify({ area: state.area, back_wall: state.wall, die_px: dieSize() })
    }).then(function (r) { return r.json().then(function (b) { return [r, b]; }); })
      .then(function (rb) {
        var r = rb[0], b = rb[1];
        if (!r.ok) return say("refused", root.dataset.error, [b.error]);
        say(b.warnings.length ? "error" : "done", root.dataset.written.replace("{file}", b.file),
            b.warnings.length ? b.warnings : [root.dataset.fits]);
        drawn.src = b.picture + "?t=" + Date.now();
        drawn.hidden = false;
      }).catch(function () { say("error", root.dataset.error); });
  });
  fresh();
})();
