/* The operator's console: every form becomes one command sent to POST /api/commands with the
   session's CSRF token; the answer (done, refused with its rule, malformed) is shown on top. */
(function () {
  "use strict";
  var token = document.querySelector('meta[name="csrf-token"]').content;
  var result = document.getElementById("result");

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
      body: JSON.stringify(body)
    });
  }

  function show(kind, title, detail, rule) {
    result.className = "result " + kind;
    result.textContent = "";
    var b = document.createElement("strong");
    b.textContent = title;
    result.appendChild(b);
    if (rule) {
      var r = document.createElement("span");
      r.className = "rule-said";
      r.textContent = rule;
      result.appendChild(r);
    }
    if (detail) {
      var p = document.createElement("span");
      if (rule) p.lang = "en";  // the game's own words beside a translated refusal
      p.textContent = detail;
      result.appendChild(p);
    }
    result.scrollIntoView({ block: "nearest" });
  }

  function outcomes(text) {
    return text.split(/[,;]/).map(function (s) { return s.trim(); }).filter(Boolean)
      .map(function (s) { return s.indexOf("-") > 0 ? s : parseInt(s, 10); });
  }

  function commandOf(form) {
    var cmd = { command: form.dataset.command };
    var dice = [], stakeFor = null, stakeAgainst = null;
    Array.prototype.forEach.call(form.querySelectorAll("[name][data-type]"), function (el) {
      var v = el.value.trim(), t = el.dataset.type;
      if (t === "die") { dice.push(parseInt(v, 10)); return; }
      if (v === "") return;
      if (t === "units" || t === "int") cmd[el.name] = parseInt(v, 10);
      else if (t === "stake_for") stakeFor = parseInt(v, 10);
      else if (t === "stake_against") stakeAgainst = parseInt(v, 10);
      else if (t === "outcomes") cmd[el.name] = outcomes(v);
      else cmd[el.name] = v;
    });
    if (dice.length) cmd.dice = dice;
    if (stakeFor !== null || stakeAgainst !== null) {
      cmd.stakes = {};
      cmd.stakes[cmd["for"] || ""] = stakeFor;
      cmd.stakes[cmd.against || ""] = stakeAgainst;
    }
    if (cmd.kind && ["hardway", "number"].indexOf(cmd.kind) < 0) delete cmd.number;
    if (cmd.kind && cmd.kind !== "proposition") { delete cmd.wins; delete cmd.loses; delete cmd.within; }
    return cmd;
  }

  function send(cmd) {
    return post("/api/commands", cmd).then(function (r) {
      return r.json().then(function (body) {
        if (r.ok) {
          show("done", result.dataset.done, (body.text || []).join(" · "));
        } else if (r.status === 409) {
          // what the refusal means and the rule, in the reader's language; then, smaller, the
          // game's own words (English): its reason and the figures of the case with what to do
          var head = body.says && body.says !== body.title ? body.says : null;
          var why = [body.refused !== body.title ? body.refused : null, body.detail];
          show("refused", result.dataset.refused + " — " + (head || body.title || body.rule),
               why.filter(Boolean).join(" · "), head ? body.title : null);
        } else {
          show("error", result.dataset.error, body.error || String(r.status));
        }
        return r.ok;
      });
    }).catch(function () { show("error", result.dataset.error, result.dataset.network); return false; });
  }

  Array.prototype.forEach.call(document.querySelectorAll("form.cmd"), function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      send(commandOf(form)).then(function (ok) {
        if (ok && form.dataset.command === "side_bet") {
          var id = form.elements.id, m = /^(.*?)(\d+)$/.exec(id.value);
          if (m) id.value = m[1] + (parseInt(m[2], 10) + 1);
        }
      });
    });
    if (form.dataset.odds) {
      var preview = form.querySelector(".odds-preview"), timer = null;
      form.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () {
          var c = commandOf(form), q = new URLSearchParams();
          q.set("kind", c.kind || "line");
          ["number", "within"].forEach(function (k) { if (c[k] !== undefined) q.set(k, c[k]); });
          ["wins", "loses"].forEach(function (k) { if (c[k]) q.set(k, c[k].join(",")); });
          var sf = form.elements.stake_for.value, sa = form.elements.stake_against.value;
          if (sf) q.set("stake_for", sf);
          if (sa) q.set("stake_against", sa);
          if (c["for"]) q.set("for", c["for"]);
          if (c.against) q.set("against", c.against);
          fetch(form.dataset.odds + "?" + q.toString()).then(function (r) { return r.json(); })
            .then(function (b) { preview.textContent = b.summary || b.error || ""; preview.className = "odds-preview" + (b.error ? " error" : ""); })
            .catch(function () {});
        }, 150);
      });
    }
  });

  // the ruling screen and the override form are re-drawn by live.js: listen on the document
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.id !== "rule-form" && form.id !== "override-form") return;
    e.preventDefault();
    var act = e.submitter ? e.submitter.value : "dice";
    var cmd = { command: "operator_ruling", why: form.elements.why.value.trim() };
    if (act === "void") {
      cmd["void"] = true;
    } else {
      var a = form.querySelector('input[name="die0"]:checked'), b = form.querySelector('input[name="die1"]:checked');
      if (!a || !b) { show("error", result.dataset.error, form.dataset.pick || ""); return; }
      cmd.dice = [parseInt(a.value, 10), parseInt(b.value, 10)];
    }
    send(cmd);
  });

  // tapping a die on the picture brings its row of values up
  document.addEventListener("click", function (e) {
    var mark = e.target.closest && e.target.closest(".die-mark");
    if (!mark) return;
    var row = document.querySelector('.die-values[data-die="' + mark.dataset.die + '"]');
    if (row) { row.scrollIntoView({ block: "center" }); row.classList.add("picked"); setTimeout(function () { row.classList.remove("picked"); }, 1200); }
  });

  var logout = document.getElementById("logout");
  if (logout) logout.addEventListener("submit", function (e) {
    e.preventDefault();
    post(logout.dataset.api, {}).finally(function () { window.location.assign(logout.dataset.next); });
  });
})();
