/* Tavolo deal form (table entry and the organiser's correction): shows the inputs of the
   chosen contract and checks them as they are tapped. The form works without it; every
   sentence comes translated from the page. A form holds one deal, or two (the correction
   page's swap): each is a .deal-fields block whose data-script names its JSON
   (#deal-form-data, #swap-deal-form-data), and whose inputs' names start with its prefix. */
(function () {
  "use strict";
  var form = document.querySelector("form.deal-form");
  if (!form) return;
  var save = form.querySelector("button.save");

  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) {
      return key in params ? String(params[key]) : "";
    });
  }

  function dealFields(root) {
    var dataNode = document.getElementById(root.getAttribute("data-script"));
    if (!dataNode) return null;
    var data = JSON.parse(dataNode.textContent);
    // The table page moves the form on to its next deal offline (static/entry.js): it
    // rewrites the JSON (the new dealer's doubles) and says so with this event.
    root.addEventListener("deal-form:reload", function () {
      data = JSON.parse(dataNode.textContent);
      checkAll();
    });
    var prefix = data.prefix || "";

    function input(name) {
      return root.querySelector('input[name="' + prefix + name + '"]');
    }

    function value(name) {
      var checked = root.querySelector('input[name="' + prefix + name + '"]:checked');
      return checked ? checked.value : "";
    }

    function everyPair() {
      var out = [];
      Object.keys(data.allowed).forEach(function (contract) {
        data.allowed[contract].forEach(function (pair) {
          if (out.indexOf(pair) < 0) out.push(pair);
        });
      });
      return out;
    }

    function showSections() {
      var chosen = value("contract");
      root.querySelectorAll(".section").forEach(function (section) {
        var wanted = section.getAttribute("data-for").split(" ");
        section.hidden = wanted.indexOf(chosen) < 0;
      });
      // Before a contract is chosen: every double some contract allows (the table page
      // moved on offline holds every player's row: static/entry.js).
      var allowed = chosen ? data.allowed[chosen] || [] : everyPair();
      root.querySelectorAll(".doubles .cell").forEach(function (cell) {
        var pair = cell.getAttribute("data-pair");
        var ok = allowed.indexOf(pair) >= 0;
        cell.hidden = !ok;
        var double = cell.querySelector('input[name="' + prefix + 'double"]');
        var redouble = cell.querySelector('input[name="' + prefix + 'redouble"]');
        // A double the contract does not allow is not sent at all.
        double.disabled = !ok;
        redouble.disabled = !ok || !double.checked;
        cell.querySelector(".redouble").hidden = !double.checked;
        if (!double.checked) redouble.checked = false;
      });
      root.querySelectorAll(".doubler").forEach(function (row) {
        row.hidden = !row.querySelector(".cell:not([hidden])");
      });
    }

    function problems() {
      var m = data.messages;
      var out = [];
      var chosen = value("contract");
      if (!chosen) return { blocking: [m.contract] };
      if (chosen === "trumps" && !value("trump")) out.push(m.trump);
      if (chosen === "barbu" && !value("king_of_hearts")) out.push(m.king);
      if (chosen === "hearts" || chosen === "queens") {
        var missing = data[chosen].filter(function (name) { return !value(name); });
        if (missing.length) {
          out.push(fill(m[chosen], {
            count: missing.length,
            cards: missing.map(function (name) { return data.cardLabels[name]; }).join(" "),
          }));
        }
      }
      if (chosen === "last_two") {
        if (!value("twelfth")) out.push(m.twelfth);
        if (!value("thirteenth")) out.push(m.thirteenth);
      }
      if (chosen === "no_tricks" || chosen === "trumps") {
        var total = 0;
        for (var i = 0; i < 4; i++) {
          total += parseInt(input("tricks_" + i).value || "0", 10) || 0;
        }
        if (total !== 13) out.push(fill(m.tricks, { total: total }));
      }
      if (chosen === "domino") {
        var seen = {};
        var order = [0, 1, 2, 3].map(function (p) { return value("place_" + p); });
        if (!order[0] || !order[1] || !order[2]) out.push(m.order);
        order.forEach(function (seat) {
          if (!seat) return;
          if (seen[seat]) out.push(fill(m.order_repeated, { name: data.names[+seat] }));
          seen[seat] = true;
        });
      }
      // A double the rules demand in this deal blocks saving: without it the engine
      // refuses the deal (the table could never finish the game otherwise).
      data.must.forEach(function (must) {
        var box = root.querySelector(
          'input[name="' + prefix + 'double"][value="' + must.pair + '"]');
        if (!box || !box.checked) out.push(fill(m.must, must));
      });
      return { blocking: out };
    }

    // A demanded double's line goes once the double is ticked.
    function showMust() {
      var list = root.querySelector(".doubles .must");
      if (!list) return;
      var left = 0;
      list.querySelectorAll("li[data-pair]").forEach(function (line) {
        var box = root.querySelector(
          'input[name="' + prefix + 'double"][value="' + line.getAttribute("data-pair") + '"]');
        line.hidden = !!(box && box.checked);
        if (!line.hidden) left++;
      });
      list.hidden = !left;
    }

    function add(list, text, kind) {
      var item = document.createElement("li");
      item.className = kind;
      item.textContent = text;
      list.appendChild(item);
    }

    function check() {
      showSections();
      showMust();
      var found = problems();
      var list = root.querySelector(".checks");
      list.innerHTML = "";
      found.blocking.forEach(function (text) { add(list, text, "problem"); });
      if (!found.blocking.length) add(list, data.messages.ok, "ok");
      return found;
    }

    root.querySelectorAll("button.step").forEach(function (button) {
      button.addEventListener("click", function () {
        var field = document.getElementById(button.getAttribute("data-target"));
        var next = (parseInt(field.value || "0", 10) || 0) +
          parseInt(button.getAttribute("data-step"), 10);
        field.value = String(Math.max(0, Math.min(13, next)));
        checkAll();
      });
    });
    // "All the rest to …": every heart (queen) not yet given goes to that player.
    root.querySelectorAll("button.rest").forEach(function (button) {
      button.addEventListener("click", function () {
        var seat = button.getAttribute("data-seat");
        data[button.getAttribute("data-rest")].forEach(function (name) {
          if (value(name)) return;
          var box = root.querySelector(
            'input[name="' + prefix + name + '"][value="' + seat + '"]');
          if (box) box.checked = true;
        });
        // Heard by this script and by the table page's (the form has changed).
        form.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    root.querySelectorAll("[data-rest-row]").forEach(function (node) { node.hidden = false; });
    return { root: root, check: check };
  }

  var deals = Array.prototype.map.call(form.querySelectorAll(".deal-fields"), dealFields)
    .filter(function (deal) { return deal; });
  if (!deals.length) return;

  // Every deal of the form is checked; the first one with a blocking problem is shown.
  function checkAll() {
    var blocked = null;
    deals.forEach(function (deal) {
      if (deal.check().blocking.length && !blocked) blocked = deal;
    });
    if (save) save.setAttribute("aria-disabled", blocked ? "true" : "false");
    return blocked;
  }

  form.addEventListener("change", checkAll);
  form.addEventListener("input", checkAll);
  form.addEventListener("submit", function (event) {
    var blocked = checkAll();
    if (blocked) {
      event.preventDefault();
      blocked.root.querySelector(".checks").scrollIntoView({ block: "center" });
      return;
    }
    // One tap, one deal: a second tap would only be answered "already saved".
    if (save) save.disabled = true;
  });
  checkAll();
})();
