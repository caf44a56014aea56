/* The room's screen (templates/scoring/burraco/screen.html): each column scrolls down by
   itself, rests at the bottom, and starts again from the top; before each new pass the
   page is fetched again with the ETag it was given (a 304 while nothing changed) and the
   columns are replaced by the new ones. With reduced motion, it turns a page at a time. */
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  if (!screen) return;
  var SPEED = 40;  // pixels a second
  // Milliseconds at the top and at the bottom of a pass (data-rest), and how often a
  // column with nothing to scroll fetches the page (data-refresh).
  function ms(name, fallback) {
    var value = parseInt(screen.getAttribute("data-" + name), 10);
    return value > 0 ? value : fallback;
  }
  var etag = null;
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function refresh(then) {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(screen.getAttribute("data-url"), { headers: headers, credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) return null;
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (html) {
        if (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("screen");
          if (fresh) {
            ["screen-seating", "screen-ranking"].forEach(function (id) {
              var old = document.getElementById(id);
              var now = fresh.querySelector("#" + id);
              if (!old || !now) return;
              var before = old.querySelector(".scroller");
              var after = now.querySelector(".scroller");
              old.replaceWith(now);
              if (before && after) after.scrollTop = before.scrollTop;  // no jump mid-pass
            });
            var head = fresh.querySelector(".screen-head");
            if (head) screen.querySelector(".screen-head").replaceWith(head);
          }
        }
      })
      .catch(function () {})
      .then(then, then);
  }

  function run(id) {
    var last = null;
    var waitUntil = performance.now() + ms("rest", 6000);
    function step(now) {
      var scroller = document.querySelector("#" + id + " .scroller");
      if (!scroller) return window.requestAnimationFrame(step);
      var room = scroller.scrollHeight - scroller.clientHeight;
      if (now < waitUntil) { last = now; return window.requestAnimationFrame(step); }
      if (room <= 1) {  // nothing to scroll: look again for news now and then
        waitUntil = now + ms("refresh", 20000);
        if (id === "screen-ranking") refresh(function () {});
        return window.requestAnimationFrame(step);
      }
      if (scroller.scrollTop >= room - 1) {  // at the bottom: rest, then from the top
        waitUntil = now + ms("rest", 6000);
        window.setTimeout(function () {
          var go = function () {
            var s = document.querySelector("#" + id + " .scroller");
            if (s) s.scrollTop = 0;
            waitUntil = performance.now() + ms("rest", 6000);
            window.requestAnimationFrame(step);
          };
          if (id === "screen-ranking") refresh(go); else go();
        }, ms("rest", 6000));
        return;
      }
      if (still) {
        scroller.scrollTop = Math.min(room, scroller.scrollTop + scroller.clientHeight * 0.9);
        waitUntil = now + ms("rest", 6000);
      } else {
        var elapsed = last === null ? 0 : Math.min(now - last, 100);
        scroller.scrollTop = Math.min(room, scroller.scrollTop + Math.max(1, SPEED * elapsed / 1000));
      }
      last = now;
      window.requestAnimationFrame(step);
    }
    window.requestAnimationFrame(step);
  }
  document.documentElement.classList.add("js");
  run("screen-seating");
  run("screen-ranking");
})();
