/* The organiser's pages: the print button of the table cards, and the event page's
   rounds that refresh themselves (htmx, every 20 s) except while the organiser is
   ticking or typing in them. A static file, so the site's CSP needs no inline script. */
(function () {
  "use strict";
  var print = document.getElementById("print-button");
  if (print) {
    print.addEventListener("click", function () { window.print(); });
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var rounds = document.getElementById("rounds");
    if (!rounds || event.detail.elt !== rounds) return;
    if (rounds.querySelector("input:checked, :focus")) event.preventDefault();
  });
})();
