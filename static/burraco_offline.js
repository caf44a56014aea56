/* The Burraco score card without a network: the card's side of static/offline_queue.js
   (Barbu's is static/entry.js). A hand saved with no network, or while hands wait before
   it, is kept on the phone and shown in the card as not yet sent; the form moves on to
   the next hand. The waiting hands are sent by themselves, in order, each with the key
   made when it was saved, as soon as the network returns; a hand the server refuses stays
   marked at its row with the server's words until the table drops it.

   Online, a saved hand is sent as before, with its key: stored, the card is shown anew;
   refused, the form is posted as it always was, so the server's page says why; no answer
   (the signal dropped on the way), it joins the queue.

   The checks made here need no engine: whole numbers, MP in steps of 5, no more cards of
   a kind than two decks hold (the figures and the words come from the page's plan,
   games/burraco/offline_plan.py). The hand's score is the server's. */
(function () {
  "use strict";
  var offline = window.TavoloOffline;
  var root = document.getElementById("score-card");
  if (!offline || !root || !root.getAttribute("data-scope")) return;
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, count) { return count === 1 ? one : many; };
  var fill = offline.fill;
  var el = offline.el;
  var queue = offline.queue(root.getAttribute("data-scope"));
  var panel = document.getElementById("offline");
  var waiting = 0;
  var busy = false;
  var sender = offline.sender(queue, { changed: show });

  // The plan of the card as the server last gave it (a refresh of the card brings a new one).
  function plan() {
    var node = document.getElementById("offline-plan");
    return node ? JSON.parse(node.textContent) : null;
  }

  function handForm() { return root.querySelector("#hand-entry form.hand-form"); }

  function waitingText(count) {
    return fill(ngettext("%(count)s hand waiting to be sent",
      "%(count)s hands waiting to be sent", count), { count: count });
  }

  // ---- The checks that need no engine: [] when the hand may be kept.
  function fieldName(form, name) {
    var input = form.querySelector('[name="' + name + '"]');
    var label = input && (input.closest("label") || form.querySelector('label[for="' + input.id + '"]'));
    var legend = input && input.closest("fieldset.line-cards") && input.closest("fieldset.line-cards").querySelector("legend");
    var words = label ? label.textContent.trim() : name;
    return legend ? legend.textContent.split(":")[0].trim() + ": " + words : words;
  }

  function whole(form, name, problems, required) {
    var input = form.querySelector('[name="' + name + '"]');
    var raw = input ? input.value.trim() : "";
    var texts = plan().texts;
    if (raw === "") {
      if (required) problems.push(fill(texts.missing, { field: fieldName(form, name) }));
      return 0;
    }
    if (!/^[-+]?\d+$/.test(raw)) {
      problems.push(fill(texts.whole, { field: fieldName(form, name), value: raw.slice(0, 20) }));
      return 0;
    }
    return parseInt(raw, 10);
  }

  function problemsOf(form) {
    var current = plan();
    var problems = [];
    var counted = form.querySelector("input[name=mode][value=cards]");
    if (!(counted && counted.checked)) {
      ["NS", "EW"].forEach(function (line) {
        var value = whole(form, line + "-mp", problems, true);
        if (value % 5) {
          problems.push(fill(current.texts.step, { line: current.lines[line], value: value }));
        }
      });
      return problems;
    }
    Object.keys(current.deck).forEach(function (kind) {
      var count = whole(form, "NS-melded-" + kind, problems) + whole(form, "EW-melded-" + kind, problems);
      if (count > current.deck[kind]) {
        problems.push(fill(current.texts.deck,
          { count: count, card_kind: current.kinds[kind], limit: current.deck[kind] }));
      }
    });
    ["NS", "EW"].forEach(function (line) {
      ["clean", "semi", "dirty", "in_hand"].forEach(function (item) { whole(form, line + "-" + item, problems); });
    });
    return problems;
  }

  function showProblems(form, problems) {
    var box = form.querySelector("#hand-preview");
    if (!box) return;
    box.replaceChildren();
    box.classList.toggle("problems", problems.length > 0);
    box.hidden = !problems.length;
    var list = el("ul");
    problems.forEach(function (words) { list.appendChild(el("li", "", words)); });
    box.appendChild(list);
  }

  // ---- What the card shows of the queue.
  function entryOfForm(form) {
    var current = plan();
    var number = parseInt(form.querySelector('input[name="number"]').value, 10);
    var counted = form.querySelector("input[name=mode][value=cards]").checked;
    var mp = counted ? null : {
      NS: parseInt(form.querySelector('[name="NS-mp"]').value, 10),
      EW: parseInt(form.querySelector('[name="EW-mp"]').value, 10),
    };
    var key = offline.newKey();
    form.querySelector('input[name="entry_key"]').value = key;
    return {
      url: form.getAttribute("action"),
      body: Array.from(new FormData(form).entries()),
      number: number,
      mp: mp,
      label: mp ? current.lines.NS + " " + mp.NS + " – " + current.lines.EW + " " + mp.EW
        : current.texts.counted,
      key: key,
    };
  }

  function showRows(entries) {
    var body = root.querySelector("#card-hands tbody");
    var current = plan();
    if (!body) return;
    body.querySelectorAll("tr.queued").forEach(function (row) { row.remove(); });
    var empty = body.querySelector("tr:not([id])");
    if (empty) empty.hidden = entries.length > 0;
    var totals = current ? { NS: current.totals.NS, EW: current.totals.EW } : null;
    entries.forEach(function (entry) {
      var row = el("tr", "queued" + (entry.state === "refused" ? " refused" : ""));
      row.setAttribute("data-queued", String(entry.number));
      var head = el("th", "", String(entry.number) + " ");
      head.scope = "row";
      head.appendChild(el("em", "status",
        "(" + (entry.state === "refused" ? gettext("refused") : gettext("not yet sent")) + ")"));
      row.appendChild(head);
      if (totals && entry.mp) {
        totals = { NS: totals.NS + entry.mp.NS, EW: totals.EW + entry.mp.EW };
      } else {
        totals = null;  // counted from the cards: only the server's engine scores it
      }
      [entry.mp ? entry.mp.NS : "…", entry.mp ? entry.mp.EW : "…",
        totals ? totals.NS : "…", totals ? totals.EW : "…"].forEach(function (value) {
        row.appendChild(el("td", "provisional", String(value)));
      });
      body.appendChild(row);
    });
  }

  function showRefusals(entries) {
    var texts = (plan() || { texts: {} }).texts;
    offline.showRefusals(document.getElementById("offline-refusals"), entries, {
      title: function (entry) {
        return fill(texts.refused || "%(number)s: %(hand)s", { number: entry.number, hand: entry.label });
      },
      unknown: texts.unknown || "",
      after: texts.after || "",
    }, function (entry) {
      queue.remove(entry.id).then(flush);
    });
  }

  // The form moved on to hand `number` (hidden once the turn's hands are all in).
  function moveTo(number) {
    var form = handForm();
    var current = plan();
    if (!form || !current) return;
    var full = current.last !== null && number > current.last;
    document.getElementById("hand-entry").hidden = full;
    document.getElementById("offline-full").hidden = !full;
    if (full) return;
    form.reset();
    // As the server shows a new form: each line's MP, the cards' fields closed.
    var cards = form.querySelector("details.cards-fields");
    if (cards) cards.open = false;
    form.querySelector('input[name="number"]').value = String(number);
    document.getElementById("hand-heading").textContent = fill(current.texts.heading, { number: number });
    var mode = form.querySelector("input[name=mode]:checked");
    if (mode) mode.dispatchEvent(new Event("change", { bubbles: true }));
    showProblems(form, []);
  }

  function show() {
    return queue.all().then(function (entries) {
      waiting = entries.length;
      // The card's own refresh (static/burraco_card.js) waits while hands wait here.
      if (waiting) root.setAttribute("data-waiting", "");
      else root.removeAttribute("data-waiting");
      panel.hidden = !entries.length && navigator.onLine;
      document.getElementById("offline-count").textContent = entries.length ? waitingText(entries.length) : "";
      document.getElementById("offline-note").hidden = navigator.onLine;
      document.getElementById("offline-provisional").hidden = !entries.length;
      if (!entries.length) document.getElementById("offline-full").hidden = true;
      showRows(entries);
      showRefusals(entries);
      return entries;
    });
  }

  function flush() {
    if (!navigator.onLine) return show();
    return sender.flush().then(show, show);
  }

  function keep(entry) {
    return queue.add(entry).then(function () {
      busy = false;
      moveTo(entry.number + 1);
      return flush();
    }, function () {
      busy = false;
    });
  }

  // Capturing on the card: ahead of burraco_card.js's own handling of a form sent, which
  // this replaces for the hand's form (and the card's refresh brings new forms: one
  // listener serves them all).
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#hand-entry form.hand-form")) return;
    event.preventDefault();
    event.stopPropagation();
    if (busy) return;  // a double tap
    var online = navigator.onLine && !waiting;
    var problems = online ? [] : problemsOf(form);
    if (problems.length) {
      showProblems(form, problems);
      return;
    }
    busy = true;
    var entry = entryOfForm(form);
    if (!online) {
      keep(entry);
      return;
    }
    var save = form.querySelector("#save-hand");
    var label = save ? save.textContent : "";
    // On its way: the card's own refresh (burraco_card.js) waits, as for a form sent.
    form.dataset.sending = "1";
    if (save) {
      save.disabled = true;
      if (save.dataset.busy) save.textContent = save.dataset.busy;
    }
    offline.send(entry).then(function (result) {
      if (result.outcome === "stored") {
        window.location.assign(root.getAttribute("data-page-url"));
      } else if (result.outcome === "later") {
        delete form.dataset.sending;
        if (save) {
          save.disabled = false;
          save.textContent = label;
        }
        keep(entry);
      } else {
        form.submit();  // no submit event: posted as the form always was
      }
    });
  }, true);

  // Offline, the engine's preview cannot answer: the phone's own checks show instead.
  function checkTyped(event) {
    var form = event.target.closest && event.target.closest("#hand-entry form.hand-form");
    if (form && !navigator.onLine) showProblems(form, problemsOf(form));
  }
  root.addEventListener("input", checkTyped);
  root.addEventListener("change", checkTyped);

  // ---- On opening: the hands kept from before (a reload, a restart) are shown, the form
  // moved past them, and sent if the network is here.
  show().then(function (entries) {
    var form = handForm();
    if (form && entries.length) {
      var last = entries[entries.length - 1].number;
      var shown = parseInt(form.querySelector('input[name="number"]').value, 10);
      if (last >= shown) moveTo(last + 1);
    }
    flush();
  });
  // Sent when the network returns; this page, its scripts and styles kept by the service
  // worker: it opens offline next time.
  offline.keepGoing(root, { flush: flush, show: show, waiting: function () { return waiting; } });
})();
