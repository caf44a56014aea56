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

  // Another phone at this table may enter or confirm a deal: follow it.
  var stateUrl = root.getAttribute("data-state-url");
  var stamp = root.getAttribute("data-stamp");
  if (stateUrl && stamp) {
    window.setInterval(function () {
      if (document.hidden) return;
      fetch(stateUrl, { headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (!answer || answer.stamp === stamp) return;
          if (!dirty) window.location.reload();
          else document.getElementById("refresh-banner").hidden = false;
        })
        .catch(function () { /* offline for a moment: try again at the next tick */ });
    }, 8000);
  }
})();
