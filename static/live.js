/* Tavolo live parts (the evening's standings): htmx polls them every second with the
   ETag of what the page shows (data-etag); the server answers 304 Not Modified while
   nothing changed, and the page is left as it is. A new answer brings its own data-etag.
   A busy site's proxy may answer 503 with Retry-After (docker/haproxy/503.http): the page
   then skips its polls for that many seconds (5 without the header), so a crowd of
   viewers eases off instead of asking again every second. */
(function () {
  "use strict";
  var quietUntil = 0;
  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.getAttribute("data-etag");
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (Date.now() < quietUntil) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 503) return;
    var wait = parseInt(xhr.getResponseHeader("Retry-After"), 10);
    quietUntil = Date.now() + (wait > 0 ? wait : 5) * 1000;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) event.detail.shouldSwap = false;
  });
})();
