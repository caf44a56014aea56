/* Tavolo live parts (the evening's standings): htmx polls them every second with the
   ETag of what the page shows (data-etag); the server answers 304 Not Modified while
   nothing changed, and the page is left as it is. A new answer brings its own data-etag. */
(function () {
  "use strict";
  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.getAttribute("data-etag");
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) event.detail.shouldSwap = false;
  });
})();
