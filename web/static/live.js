/* The live page: server-sent events from /api/events, each followed by a fresh copy of the
   page's live parts (rendered by the server in the reader's language). Reconnects when the
   phone wakes up, and falls back to polling /api/state when the stream is not available. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;
  var conn = document.getElementById("conn");
  var feed = document.getElementById("feed");
  var names = (live.dataset.names || "").split(" ").filter(Boolean);
  var seq = parseInt(live.dataset.seq || "0", 10);
  var es = null, pollTimer = null, refreshTimer = null, retryTimer = null;
  var received = [];
  window.tablectl = { received: received, seq: function () { return seq; },
                      reconnect: function () { connect(); }, drop: function () { if (es) es.close(); } };

  function setConn(kind) {
    if (!conn) return;
    conn.textContent = conn.dataset[kind] || kind;
    conn.className = "conn " + kind;
  }

  function refresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () {
      var blocks = document.querySelectorAll("[data-fragment]");
      Array.prototype.forEach.call(blocks, function (el) {
        fetch(el.dataset.fragment, { credentials: "same-origin", cache: "no-store" })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (html === null) return;
            var holder = document.createElement("div");
            holder.innerHTML = html;
            var before = el.querySelector("[data-key]"), after = holder.querySelector("[data-key]");
            // a form the operator is filling in stays as it is while it is about the same throw
            if (before && after && before.dataset.key === after.dataset.key) return;
            el.innerHTML = html;
            document.dispatchEvent(new CustomEvent("tablectl:refreshed", { detail: el.id }));
          })
          .catch(function () {});
      });
    }, 40);
  }

  function onEvent(ev) {
    var id = parseInt(ev.lastEventId, 10);
    var data;
    try { data = JSON.parse(ev.data); } catch (e) { return; }
    if (!isNaN(id) && id > seq) seq = id;
    received.push({ id: id, event: ev.type, data: data });
    if (feed && data.text && ev.type !== "table_status") {
      var li = document.createElement("li");
      li.textContent = data.text;
      li.dataset.seq = String(id);
      feed.insertBefore(li, feed.firstChild);
      while (feed.children.length > 30) feed.removeChild(feed.lastChild);
    }
    refresh();
  }

  function startPolling() {
    if (pollTimer) return;
    setConn("polling");
    pollTimer = setInterval(function () {
      fetch(live.dataset.state, { cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (s) { if (s.seq !== seq) { seq = Math.max(seq, s.seq); refresh(); } })
        .catch(function () { setConn("offline"); });
    }, 3000);
  }

  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }

  function connect() {
    clearTimeout(retryTimer);
    if (es) es.close();
    if (!window.EventSource) { startPolling(); return; }
    es = new EventSource(live.dataset.events + "?since=" + seq);
    names.forEach(function (n) { es.addEventListener(n, onEvent); });
    es.onmessage = onEvent;
    es.onopen = function () { stopPolling(); setConn("live"); };
    es.onerror = function () {
      if (es.readyState === EventSource.CLOSED) {
        // refused (too many pages) or gone: poll, and try the stream again later
        es = null;
        startPolling();
        retryTimer = setTimeout(connect, 15000);
      } else {
        setConn("offline");
      }
    };
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { connect(); refresh(); }
  });
  window.addEventListener("online", function () { connect(); refresh(); });
  connect();
})();
