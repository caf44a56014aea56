/* Tavolo's service worker (served from the site's root by games/core/offline.py, so its
   scope is the whole site): a table page opened once opens again without a network.

   A page asks to be kept (static/offline_queue.js, keepPage): its address, scripts,
   styles and icons go into one cache. Only what was kept is ever answered from it:
   - a kept page (opened, or fetched by its own script): from the network first, the
     cache refreshed with each answer; the cache when the network fails or is silent for
     4 seconds (a crowded access point);
   - a kept script, style or icon: from the cache at once, refreshed in the background;
   - everything else (the state polls, the API, the other pages, every POST): untouched,
     never even looked up (KEEPABLE below).
   Nothing is fetched from another host. */
"use strict";

var CACHE = "tavolo-tables-1";
var PATIENCE_MS = 4000;

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("tavolo-tables-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function store(cache, url) {
  return fetch(url, { credentials: "same-origin" }).then(function (response) {
    if (response.ok && !response.redirected) return cache.put(url, response);
    return null;
  });
}

// Keep what the page names: what the cache lacks is fetched now (a page already kept is
// refreshed by its own next visit, not fetched twice).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  var port = event.ports && event.ports[0];
  var urls = data.urls.filter(function (url) {
    return new URL(url).origin === self.location.origin;
  });
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      return Promise.all(urls.map(function (url) {
        return cache.match(url).then(function (hit) { return hit || store(cache, url); });
      }));
    }).then(function () {
      if (port) port.postMessage({ kept: true });
    }, function () {
      if (port) port.postMessage({ kept: false });
    })
  );
});

function pageFirst(event, cache, kept) {
  var fromNetwork = fetch(event.request).then(function (response) {
    if (response.ok && !response.redirected) {
      event.waitUntil(cache.put(event.request.url, response.clone()));
    }
    return response;
  });
  var patience = new Promise(function (resolve) {
    setTimeout(function () { resolve(null); }, PATIENCE_MS);
  });
  return Promise.race([fromNetwork.catch(function () { return null; }), patience])
    .then(function (response) { return response || kept; });
}

function assetFirst(event, cache, kept) {
  event.waitUntil(
    fetch(event.request).then(function (response) {
      if (response.ok) return cache.put(event.request.url, response);
      return null;
    }).catch(function () { return null; })
  );
  return kept;
}

var TABLE_PAGE = /^\/(?:[a-z]{2}(?:-[a-z]+)?\/)?(t\/[^/]+\/(?:card\/)?)$/;

// A kept copy of the same table's page under another language prefix, or undefined.
function twin(cache, url) {
  var wanted = TABLE_PAGE.exec(url.pathname);
  if (!wanted) return Promise.resolve(undefined);
  return cache.keys().then(function (requests) {
    var found = requests.filter(function (kept) {
      var match = TABLE_PAGE.exec(new URL(kept.url).pathname);
      return match && match[1] === wanted[1];
    })[0];
    return found ? cache.match(found) : undefined;
  });
}

// What a table page may have kept: a table's page (/t/<key>/, with or without a language
// prefix), the static files, the offline texts and manifest. Any other request is left to
// the browser, untouched.
var KEEPABLE = /^\/(?:[a-z]{2}(?:-[a-z]+)?\/)?t\/[^/]+\/(?:card\/)?$|^\/static\/|^\/offline\//;

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || !KEEPABLE.test(url.pathname)) return;
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(request.url).then(function (kept) {
        if (!kept && request.mode === "navigate") {
          // The same table kept under another language's address (/it/t/<key>/ for
          // /t/<key>/): the network first, that copy when there is none.
          return fetch(request).catch(function () {
            return twin(cache, url).then(function (copy) { return copy || Response.error(); });
          });
        }
        if (!kept) return fetch(request);
        // A table page is always asked of the network first, also when a script fetches
        // it (the score card shows its new state in place): a kept copy answers only when
        // the network fails, never ahead of it.
        if (request.mode === "navigate" || TABLE_PAGE.test(url.pathname)) {
          return pageFirst(event, cache, kept);
        }
        return assetFirst(event, cache, kept);
      });
    })
  );
});
