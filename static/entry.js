/* Tavolo table entry: notices a deal entered or confirmed from another phone, and keeps
   the deals saved without a network (the Barbu side of static/offline_queue.js). The deal
   form itself is static/deal_form.js. */
(function () {
  "use strict";
  var root = document.getElementById("entry");
  if (!root) return;
  var form = document.getElementById("entry-form");
  var dirty = false;
  var offline = window.TavoloOffline;
  var queue = offline ? offline.queue(root.getAttribute("data-scope")) : null;
  var waiting = 0;       // entries on the phone, shown as "2 deals waiting to be sent"
  var sentSome = false;  // the server took a queued deal: the page shows its scores after

  function touched() { dirty = true; }

  if (form) {
    form.addEventListener("change", touched);
    form.addEventListener("input", touched);
    form.querySelectorAll("button.step").forEach(function (button) {
      button.addEventListener("click", touched);
    });
  }

  // The texts come from Django's JavaScript catalogue (games/core/offline.py,
  // locale/*/LC_MESSAGES/djangojs.po); without it (not yet kept offline), the English ones.
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, count) { return count === 1 ? one : many; };
  var fill = offline ? offline.fill : function (template) { return template; };
  function waitingText(count) {
    return fill(ngettext("%(count)s deal waiting to be sent",
      "%(count)s deals waiting to be sent", count), { count: count });
  }

  // Another phone at this table may enter or confirm a deal: follow it. Every second,
  // with the ETag of the state this page shows: 304 (nothing new) costs the server no
  // database query, and response.ok is false for it, so nothing happens. While deals of
  // this phone wait to be sent, the page stays as it is: it reloads once they are stored.
  // One reload at a time: the state's poll and the queue's flush may both find the page
  // out of date, and a second reload while the first is on its way would abort it.
  var reloading = false;
  function reload() {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  }
  var stateUrl = root.getAttribute("data-state-url");
  var stamp = root.getAttribute("data-stamp");
  var etag = root.getAttribute("data-etag");
  if (stateUrl && stamp) {
    window.setInterval(function () {
      if (document.hidden || waiting || reloading) return;
      var headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(stateUrl, { headers: headers })
        .then(function (response) {
          if (!response.ok) return null;
          etag = response.headers.get("ETag") || "";
          return response.json();
        })
        .then(function (answer) {
          if (!answer || answer.stamp === stamp || waiting) return;
          if (!dirty) reload();
          else document.getElementById("refresh-banner").hidden = false;
        })
        .catch(function () { /* offline for a moment: try again at the next tick */ });
    }, 1000);
  }

  if (!queue) return;
  var planNode = document.getElementById("offline-plan");
  var plan = planNode ? JSON.parse(planNode.textContent) : null;
  var dataNode = document.getElementById("deal-form-data");
  var panel = document.getElementById("offline");
  var sender = offline.sender(queue, {
    changed: show,
    sent: function () { sentSome = true; },
  });

  var el = offline.el;

  // ---- The form moved on to the next deal, offline: the plan of games/barbu/offline_plan.py.
  function planned(number) {
    if (!plan || !plan.dealers) return null;
    var dealer = plan.dealers[number - plan.first];
    if (dealer === undefined) return null;
    return { number: number, dealer: dealer, allowed: plan.allowed[String(dealer)] };
  }

  function contractsLeft(dealer, entries) {
    var used = {};
    plan.played.forEach(function (pair) { if (pair[0] === dealer) used[pair[1]] = true; });
    entries.forEach(function (entry) { if (entry.dealer === dealer) used[entry.contract] = true; });
    return plan.contracts.filter(function (pair) { return !used[pair[0]]; });
  }

  function contractOption(pair) {
    var label = el("label", "tap");
    label.htmlFor = "contract-" + pair[0];
    var input = el("input");
    input.type = "radio";
    input.id = "contract-" + pair[0];
    input.name = "contract";
    input.value = pair[0];
    label.appendChild(input);
    label.appendChild(el("span", "", pair[1]));
    return label;
  }

  function moveTo(number, entries) {
    var next = planned(number);
    if (!next) {
      // Every deal of the game is entered: they wait on the phone to be sent.
      form.hidden = true;
      return;
    }
    form.reset();
    form.querySelector('input[name="number"]').value = String(number);
    var name = plan.names[next.dealer];
    document.getElementById("deal-heading").textContent =
      fill(plan.texts.heading, { number: number, dealer: name });
    document.getElementById("save").textContent = fill(plan.texts.save, { number: number });
    var choices = form.querySelector(".contracts .choices");
    choices.innerHTML = "";
    contractsLeft(next.dealer, entries).forEach(function (pair) {
      choices.appendChild(contractOption(pair));
    });
    var doubles = form.querySelector(".doubles");
    doubles.querySelectorAll(".doubler, .must, .owed").forEach(function (node) { node.remove(); });
    doubles.insertAdjacentHTML("beforeend", plan.doublers || "");
    var data = JSON.parse(dataNode.textContent);
    data.allowed = next.allowed;
    data.must = [];  // a double demanded later in the turn: checked when the deal is sent
    dataNode.textContent = JSON.stringify(data);
    form.querySelector(".deal-fields").dispatchEvent(new Event("deal-form:reload"));
    document.getElementById("save").disabled = false;
    dirty = false;
  }

  function currentNumber() {
    return parseInt(form.querySelector('input[name="number"]').value, 10);
  }

  // ---- What the page shows of the queue: the count, the rows, the refusals.
  function showRows(entries) {
    var body = document.querySelector("#score-table tbody");
    if (!body) return;
    body.querySelectorAll("tr.queued").forEach(function (row) { row.remove(); });
    var empty = body.querySelector("tr:not([data-deal])");
    if (empty) empty.hidden = entries.length > 0;
    entries.forEach(function (entry) {
      var row = el("tr", "queued" + (entry.state === "refused" ? " refused" : ""));
      row.setAttribute("data-queued", String(entry.number));
      row.appendChild(el("td", "num", String(entry.number)));
      var cell = el("td", "", entry.label + " ");
      cell.appendChild(el("em", "status",
        "(" + (entry.state === "refused" ? gettext("refused") : gettext("not yet sent")) + ")"));
      row.appendChild(cell);
      for (var i = 0; i < 4; i++) row.appendChild(el("td", "num provisional", "…"));
      body.appendChild(row);
    });
    document.getElementById("offline-provisional").hidden = !entries.length;
  }

  function showRefusals(entries) {
    offline.showRefusals(document.getElementById("offline-refusals"), entries, {
      title: function (entry) {
        return fill(gettext("Deal %(number)s was not stored: %(deal)s"),
          { number: entry.number, deal: entry.label });
      },
      unknown: gettext("The server did not accept this deal."),
      after: gettext("The deals after it wait. Drop this one to send them; the organiser can correct a stored deal."),
    }, function (entry) {
      queue.remove(entry.id).then(flush);
    });
  }

  function show() {
    return queue.all().then(function (entries) {
      waiting = entries.length;
      panel.hidden = !entries.length && navigator.onLine;
      document.getElementById("offline-count").textContent = entries.length ? waitingText(entries.length) : "";
      document.getElementById("offline-note").hidden = navigator.onLine;
      showRows(entries);
      showRefusals(entries);
      return entries;
    });
  }

  function flush() {
    if (!navigator.onLine) return show();
    return sender.flush().then(function (left) {
      if (!left.length && sentSome) {
        // Everything is stored: the server's page has the scores (unless a deal is being
        // tapped). Once: a second flush meanwhile (the online event, the 5 s tick) would
        // abort the first reload with a second.
        sentSome = false;
        if (!dirty) reload();
        else document.getElementById("refresh-banner").hidden = false;
      }
      return show();
    }, show);
  }

  // ---- A deal saved (after deal_form.js's checks: a blocked form never gets here). With
  // nothing waiting and a network, it is sent at once with its Idempotency-Key: stored, the
  // page shows it; refused, the form is posted as it always was, so the server's page says
  // why with the form as tapped. No answer (the signal dropped on the way), or no network,
  // or deals waiting before it: it joins the queue, and the form moves on to the next deal.
  var busy = false;
  function entryOfForm() {
    var chosen = form.querySelector('input[name="contract"]:checked');
    var trump = form.querySelector('input[name="trump"]:checked');
    var label = chosen ? chosen.closest("label").textContent.trim() : "";
    if (chosen && chosen.value === "trumps" && trump) label += " " + trump.closest("label").textContent.trim();
    var number = currentNumber();
    var deal = planned(number);
    return {
      url: root.getAttribute("data-deal-url"),
      body: Array.from(new FormData(form).entries()),
      number: number,
      dealer: deal ? deal.dealer : null,
      contract: chosen ? chosen.value : "",
      label: label,
      key: offline.newKey(),
    };
  }

  function keep(entry) {
    return queue.add(entry).then(function () {
      return queue.all();
    }).then(function (entries) {
      moveTo(entry.number + 1, entries);
      busy = false;
      return flush();
    }, function () {
      busy = false;
      document.getElementById("save").disabled = false;
    });
  }

  if (form) {
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return;
      event.preventDefault();
      if (busy) return;
      busy = true;
      var entry = entryOfForm();
      if (!navigator.onLine || waiting) {
        keep(entry);
        return;
      }
      offline.send(entry).then(function (result) {
        if (result.outcome === "stored") {
          window.location.assign(window.location.href.split("#")[0]);
        } else if (result.outcome === "later") {
          keep(entry);
        } else {
          form.submit();  // no submit event: posted as the form always was
        }
      });
    });
  }

  // ---- On opening: the deals kept from before (a reload, a restart) are shown, the form
  // moved past them, and sent if the network is here.
  show().then(function (entries) {
    if (form && entries.length) {
      var last = entries[entries.length - 1].number;
      if (last >= currentNumber()) moveTo(last + 1, entries);
    }
    flush();
  });
  // Sent when the network returns; this page, its scripts and styles kept by the service
  // worker: it opens offline next time.
  offline.keepGoing(root, { flush: flush, show: show, waiting: function () { return waiting; } });
})();
