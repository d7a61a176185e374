(function () {
  "use strict";
  var form = document.getElementById("login");
  if (!form) return;
  var out = document.getElementById("login-error");
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    out.textContent = "";
    fetch(form.dataset.api, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pin: form.elements.pin.value })
    }).then(function (r) {
      if (r.ok) { window.location.assign(form.dataset.next); return; }
      out.textContent = r.status === 429 ? form.dataset.many : form.dataset.wrong;
      form.elements.pin.select();
    }).catch(function () { out.textContent = form.dataset.wrong; });
  });
})();
