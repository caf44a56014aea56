/* Tavolo table entry: notices a deal entered or confirmed from another phone. The deal
   form itself is static/deal_form.js. */
(function () {
  "use strict";
  var root = document.getElementById("entry");
  if (!root) return;
  var form = document.getElementById("entry-form");
  var dirty = false;

  function touched() { dirty = true; }

  if (form) {
    form.addEventListener("change", touched);
    form.addEventListener("input", touched);
    form.querySelectorAll("button.step").forEach(function (button) {
      button.addEventListener("click", touched);
    });
  }

  // Another phone at this table may enter or confirm a deal: follow it. Every second,
  // with the ETag of the state this page shows: 304 (nothing new) costs the server no
  // database query, and response.ok is false for it, so nothing happens.
  var stateUrl = root.getAttribute("data-state-url");
  var stamp = root.getAttribute("data-stamp");
  var etag = root.getAttribute("data-etag");
  if (stateUrl && stamp) {
    window.setInterval(function () {
      if (document.hidden) return;
      var headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(stateUrl, { headers: headers })
        .then(function (response) {
          if (!response.ok) return null;
          etag = response.headers.get("ETag") || "";
          return response.json();
        })
        .then(function (answer) {
          if (!answer || answer.stamp === stamp) return;
          if (!dirty) window.location.reload();
          else document.getElementById("refresh-banner").hidden = false;
        })
        .catch(function () { /* offline for a moment: try again at the next tick */ });
    }, 1000);
  }
})();
