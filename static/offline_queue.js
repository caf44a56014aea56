/* Tavolo offline queue, for every game's table page: entries tapped without a network are
   kept on the phone (IndexedDB: they survive a reload, closing the browser, a restart)
   and sent by themselves, in order, when the network returns. Each entry carries the
   Idempotency-Key made here when it was tapped, so a resend, a double tap or a second
   phone never stores anything twice. The server answers a queued entry in JSON
   (games/core/offline.py): stored (the entry goes), or refused (it stays, marked, with
   the server's words and its stored version, until the table drops it; the entries
   after it wait behind it, in order). A lost network or a server error: tried again.

   window.TavoloOffline:
     queue(scope)          the entries of one table ("barbu:<key>"), oldest first:
                           .all(), .add(entry), .put(entry), .remove(id)
     sender(queue, hooks)  .flush() sends the waiting entries in order; hooks.changed()
                           after each change, hooks.sent(entry, answer) after each stored
     keepPage(workerUrl)   the service worker (static/table_worker.js) keeps this page,
                           its scripts and styles for offline use; resolves when kept
     newKey()              an Idempotency-Key made on the phone
     send(entry)           one entry sent now: {outcome: "stored" | "refused" | "later",
                           answer}; a page sends its entry itself while online, and
                           queues it when the answer is "later" (same key, same entry)
     showRefusals(box, entries, texts, drop)
                           each refused entry in `box`, with the server's words, its
                           stored version and a button that calls drop(entry); texts:
                           {title(entry), unknown, after} in the game's own words
     keepGoing(root, hooks) the queue sent when the network returns and every 5 s while
                           hooks.waiting(); the page kept once loaded (data-offline-ready
                           on `root`, whose data-worker names the service worker)
     fill(template, params), el(tag, className, text)   the small helpers of both pages
   An entry: {url, body: [[name, value], ...], number, label, key, state, refusal}. */
(function () {
  "use strict";
  var DB_NAME = "tavolo-offline";
  var STORE = "entries";

  function request(req) {
    return new Promise(function (resolve, reject) {
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  var opened = null;
  function database() {
    if (!opened) {
      var req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = function () {
        var store = req.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        store.createIndex("scope", "scope");
      };
      opened = request(req);
    }
    return opened;
  }

  // One transaction: `work` gets the store and returns a request (or a promise of a value).
  function transact(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result;
        Promise.resolve(work(tx.objectStore(STORE))).then(function (value) { result = value; });
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  function Queue(scope) { this.scope = scope; }

  Queue.prototype.all = function () {
    var scope = this.scope;
    return transact("readonly", function (store) {
      return request(store.index("scope").getAll(scope));
    }).then(function (entries) {
      return (entries || []).sort(function (a, b) { return a.id - b.id; });
    });
  };

  Queue.prototype.add = function (entry) {
    entry.scope = this.scope;
    entry.state = "waiting";
    entry.key = entry.key || newKey();
    entry.made = Date.now();
    return transact("readwrite", function (store) {
      return request(store.add(entry));
    }).then(function (id) { entry.id = id; return entry; });
  };

  Queue.prototype.put = function (entry) {
    return transact("readwrite", function (store) { return request(store.put(entry)); });
  };

  Queue.prototype.remove = function (id) {
    return transact("readwrite", function (store) { return request(store.delete(id)); });
  };

  function cookie(name) {
    var found = document.cookie.split("; ").filter(function (part) {
      return part.indexOf(name + "=") === 0;
    })[0];
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  // "stored", "refused" (with the server's answer) or "later" (no network, server error).
  function send(entry) {
    var body = new URLSearchParams();
    entry.body.forEach(function (pair) { body.append(pair[0], pair[1]); });
    var headers = { Accept: "application/json", "Idempotency-Key": entry.key };
    var token = cookie("csrftoken");
    if (token) {
      headers["X-CSRFToken"] = token;
      body.set("csrfmiddlewaretoken", token);
    }
    return fetch(entry.url, {
      method: "POST", body: body, headers: headers, credentials: "same-origin",
    }).then(function (response) {
      if (response.status >= 500) return { outcome: "later" };
      return response.json().then(function (answer) {
        return { outcome: answer.ok ? "stored" : "refused", answer: answer };
      }, function () {
        // Not the JSON of games/core/offline.py (a proxy's page, a lost session).
        return { outcome: "refused", answer: { ok: false, code: "http_" + response.status, messages: [] } };
      });
    }, function () {
      return { outcome: "later" };
    });
  }

  function Sender(queue, hooks) {
    this.queue = queue;
    this.hooks = hooks || {};
    this.running = null;
  }

  Sender.prototype.flush = function () {
    var self = this;
    if (self.running) return self.running;
    function next() {
      return self.queue.all().then(function (entries) {
        var entry = entries[0];
        // A refused entry holds the ones after it: they were entered after it, in order.
        if (!entry || entry.state === "refused") return entries;
        return send(entry).then(function (result) {
          if (result.outcome === "later") return entries;
          if (result.outcome === "stored") {
            return self.queue.remove(entry.id).then(function () {
              if (self.hooks.sent) self.hooks.sent(entry, result.answer);
              if (self.hooks.changed) self.hooks.changed();
              return next();
            });
          }
          entry.state = "refused";
          entry.refusal = result.answer;
          return self.queue.put(entry).then(function () {
            if (self.hooks.changed) self.hooks.changed();
            return self.queue.all();
          });
        });
      });
    }
    self.running = next().then(function (left) {
      self.running = null;
      return left;
    }, function (error) {
      self.running = null;
      throw error;
    });
    return self.running;
  };

  // The page's own address and every script, style and icon it loads, from this site.
  function pageAssets() {
    var urls = [window.location.href.split("#")[0]];
    document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=manifest], link[rel=icon]")
      .forEach(function (node) {
        var url = new URL(node.getAttribute("src") || node.getAttribute("href"), window.location.href);
        if (url.origin === window.location.origin) urls.push(url.href);
      });
    return urls;
  }

  function keepPage(workerUrl) {
    if (!("serviceWorker" in navigator) || !workerUrl) return Promise.resolve(false);
    return navigator.serviceWorker.register(workerUrl, { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        return new Promise(function (resolve) {
          var channel = new MessageChannel();
          channel.port1.onmessage = function (event) { resolve(!!event.data.kept); };
          registration.active.postMessage({ type: "keep", urls: pageAssets() }, [channel.port2]);
        });
      })
      .catch(function () { return false; });
  }

  // The texts come from Django's JavaScript catalogue (games/core/offline.py,
  // locale/*/LC_MESSAGES/djangojs.po); without it (not yet kept offline), the English ones.
  var gettext = window.gettext || function (text) { return text; };

  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) {
      return key in params ? String(params[key]) : "";
    });
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function showRefusals(box, entries, texts, drop) {
    box.innerHTML = "";
    entries.filter(function (entry) { return entry.state === "refused"; }).forEach(function (entry) {
      var answer = entry.refusal || {};
      var part = el("div", "refusal problems");
      part.setAttribute("role", "alert");
      part.setAttribute("data-refused", String(entry.number));
      part.appendChild(el("p", "", texts.title(entry)));
      var list = el("ul");
      var words = answer.messages && answer.messages.length ? answer.messages : [texts.unknown];
      words.forEach(function (text) { list.appendChild(el("li", "", text)); });
      part.appendChild(list);
      if (answer.stored) {
        part.appendChild(el("p", "stored", fill(gettext("Stored version: %(deal)s"), { deal: answer.stored })));
      }
      part.appendChild(el("p", "note", texts.after));
      var button = el("button", "drop", gettext("Drop my version"));
      button.type = "button";
      button.addEventListener("click", function () {
        button.disabled = true;
        drop(entry);
      });
      part.appendChild(button);
      box.appendChild(part);
    });
  }

  function keepGoing(root, hooks) {
    window.addEventListener("online", hooks.flush);
    window.addEventListener("offline", hooks.show);
    window.setInterval(function () { if (hooks.waiting() && navigator.onLine) hooks.flush(); }, 5000);
    window.addEventListener("load", function () {
      keepPage(root.getAttribute("data-worker")).then(function (kept) {
        if (kept) root.setAttribute("data-offline-ready", "");
      });
    });
  }

  window.TavoloOffline = {
    keepGoing: keepGoing,
    showRefusals: showRefusals,
    fill: fill,
    el: el,
    queue: function (scope) { return new Queue(scope); },
    sender: function (queue, hooks) { return new Sender(queue, hooks); },
    keepPage: keepPage,
    newKey: newKey,
    send: send,
  };
})();
