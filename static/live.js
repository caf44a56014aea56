/* Tavolo live parts (the evening's standings): htmx polls them every second with the
   ETag of what the page shows (data-etag); the server answers 304 Not Modified while
   nothing changed, and the page is left as it is. A new answer brings its own data-etag.
   Polls back off when nothing changes: after QUIET_AFTER answers in a row with nothing
   new (half a minute), the live part asks every SLOW_EVERY seconds, and every second
   again from the first answer that brings something (between two rounds, a page left
   open on a phone or overnight asks a third as often; a deal at a busy evening changes
   the answer every second or so, and there it never slows).
   A busy site's proxy may answer 503 with Retry-After (docker/haproxy/503.http): the page
   then skips its polls for that many seconds (5 without the header), so a crowd of
   viewers eases off instead of asking again every second. */
(function () {
  "use strict";
  var QUIET_AFTER = 30;
  var SLOW_EVERY = 3;
  var quietUntil = 0;
  var unchanged = 0;  // answers in a row that brought nothing new (304)
  var skipped = 0;    // ticks let pass since the last poll, once quiet
  function isLive(event) { return event.detail.elt && event.detail.elt.id === "live"; }

  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.getAttribute("data-etag");
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (Date.now() < quietUntil) {
      event.preventDefault();
      return;
    }
    if (isLive(event) && unchanged >= QUIET_AFTER && ++skipped < SLOW_EVERY) {
      event.preventDefault();
      return;
    }
    skipped = 0;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 503) return;
    var wait = parseInt(xhr.getResponseHeader("Retry-After"), 10);
    quietUntil = Date.now() + (wait > 0 ? wait : 5) * 1000;
  });
  // Counted before the swap: afterwards the element that asked is out of the page, and its
  // events no longer reach the document.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 304) event.detail.shouldSwap = false;
    if (!isLive(event)) return;
    if (status === 304) unchanged += 1;
    else if (status === 200) unchanged = 0;
  });
})();
