// The Burraco score card at the table (templates/games/burraco/card.html).
//
// - The way of entering a hand that is chosen shows its own fields only; opening "Count
//   from the cards" chooses it. Without this script both stay usable and the chosen radio
//   decides.
// - A form sent is sent once: its buttons are disabled while it is on its way (the save
//   button says "Saving…"); the server refuses a second copy anyway (the form's hand
//   number and key, games/burraco/table_views.py).
// - The page follows the card: every second it asks the card's state with the ETag it
//   holds (304 while nothing changed, no database query); when the stamp changes (a hand
//   of the other phone, a confirmation, a dispute, a correction, the turn closed) it
//   fetches the page and shows the new card in place, without a reload. A hand being
//   typed is kept as it is: its form still names the hand it was entering, and the
//   server says so if that hand is in meanwhile.
// - The preview: as a hand is typed, the server's engine scores it (the card's preview
//   URL, nothing stored) and its MP and the totals with it show under the form. No
//   score is computed here.
// - The clock: the turn's time left, counted down from what the server said when the page
//   was made (the phone's own clock may be wrong); once over, it says so.
// - Without a network, static/burraco_offline.js keeps the hands saved on the phone: it
//   takes over the hand form's sending, and the card is not refreshed while hands wait.
(function () {
  "use strict";

  function modes(form) {
    const points = form.querySelector(".mp-fields");
    const cards = form.querySelector(".cards-fields");
    const radio = (value) => form.querySelector(`input[name=mode][value=${value}]`);
    const show = () => {
      const counted = radio("cards") && radio("cards").checked;
      if (points) points.hidden = counted;
      if (cards && counted && !cards.open) cards.open = true;
    };
    form.addEventListener("change", (event) => {
      if (event.target.name === "mode") show();
    });
    if (cards) {
      cards.addEventListener("toggle", () => {
        const wanted = radio(cards.open ? "cards" : "mp");
        if (wanted && !wanted.checked) {
          wanted.checked = true;
          show();
        }
      });
    }
    show();
  }

  function sendOnce(form) {
    if (form.dataset.ready) return;
    form.dataset.ready = "1";
    form.addEventListener("submit", (event) => {
      if (form.dataset.sending) {
        event.preventDefault();
        return;
      }
      form.dataset.sending = "1";
      // Disabled after the browser has read the form: the tapped button's own value
      // (Confirm or Dispute) is still sent.
      window.setTimeout(() => {
        form.querySelectorAll("button").forEach((button) => {
          button.disabled = true;
          if (button.dataset.busy) {
            button.dataset.label = button.textContent;
            button.textContent = button.dataset.busy;
          }
        });
      }, 0);
    });
  }

  // Back to a page kept by the browser: its forms may be sent again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    document.querySelectorAll("#score-card form").forEach((form) => {
      delete form.dataset.sending;
      form.querySelectorAll("button").forEach((button) => {
        button.disabled = false;
        if (button.dataset.label) button.textContent = button.dataset.label;
      });
    });
  });

  function showPreview(box, answer) {
    box.replaceChildren();
    if (!answer) {
      box.hidden = true;
      return;
    }
    const list = document.createElement("ul");
    (answer.ok ? answer.words : answer.problems).forEach((words) => {
      const item = document.createElement("li");
      item.textContent = words;
      list.appendChild(item);
    });
    box.classList.toggle("problems", !answer.ok);
    box.appendChild(list);
    box.hidden = false;
  }

  function previews(form) {
    const box = form.querySelector("#hand-preview");
    if (!box || box.dataset.ready) return;
    box.dataset.ready = "1";
    let timer = null;
    let asked = 0;
    const ask = () => {
      const counted = form.querySelector("input[name=mode][value=cards]");
      const typed = Array.from(form.querySelectorAll(".mp-fields input")).some((i) => i.value.trim());
      if (!(counted && counted.checked) && !typed) {
        showPreview(box, null);
        return;
      }
      const mine = ++asked;
      fetch(box.dataset.url, {
        method: "POST",
        body: new FormData(form),
        headers: { Accept: "application/json" },
      })
        .then((response) => (response.ok ? response.json() : null))
        .then((answer) => {
          if (mine === asked) showPreview(box, answer);
        })
        .catch(() => { /* offline for a moment: the next key typed asks again */ });
    };
    const later = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, 250);
    };
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    ask();
  }

  function tickClock() {
    const shown = document.getElementById("turn-clock");
    if (!shown) return;
    // Each clock the server sends (the page, or a refresh) starts from its own figure.
    if (!shown.dataset.ends) {
      shown.dataset.ends = String(Date.now() + Number(shown.dataset.secondsLeft) * 1000);
    }
    const left = Math.round((Number(shown.dataset.ends) - Date.now()) / 1000);
    if (left <= 0) {
      shown.textContent = shown.dataset.up;
      shown.classList.add("up");
      return;
    }
    const seconds = String(left % 60).padStart(2, "0");
    shown.textContent = shown.dataset.left.replace("{time}", `${Math.floor(left / 60)}:${seconds}`);
  }

  function start(root) {
    const form = root.querySelector(".hand-form");
    if (form && !form.dataset.ready) modes(form);
    if (form) previews(form);
    root.querySelectorAll("form").forEach(sendOnce);
    tickClock();
  }

  function follow(root) {
    const url = root.dataset.stateUrl;
    let etag = root.dataset.etag || "";
    let stamp = root.dataset.stamp;
    if (!url || !stamp) return;
    let typing = false;
    const touched = (event) => {
      if (event.target.closest("#hand-entry")) typing = true;
    };
    root.addEventListener("input", touched);
    root.addEventListener("change", touched);

    // The card's own page (its state's address less "state/"), not the address shown:
    // after a refused form that is where the form was sent (…/card/hand/), POST only.
    const page = url.replace(/state\/$/, "");
    const refresh = () =>
      fetch(page, { headers: { Accept: "text/html" } })
        .then((response) => (response.ok ? response.text() : null))
        .then((text) => {
          if (!text) return;
          const fresh = new DOMParser()
            .parseFromString(text, "text/html")
            .getElementById("score-card");
          if (!fresh || root.querySelector("form[data-sending]") || root.hasAttribute("data-waiting")) return;
          const kept = typing && root.querySelector("#hand-entry");
          const slot = kept && fresh.querySelector("#hand-entry");
          if (slot) slot.replaceWith(kept);
          else typing = false;
          root.replaceChildren(...fresh.childNodes);
          stamp = fresh.dataset.stamp;
          etag = fresh.dataset.etag || etag;
          root.dataset.stamp = stamp;
          start(root);
        });

    let asking = false;
    window.setInterval(() => {
      // Hands kept on this phone (static/burraco_offline.js): the card stays as it is
      // until they are sent.
      if (document.hidden || asking || root.querySelector("form[data-sending]")) return;
      if (root.hasAttribute("data-waiting")) return;
      asking = true;
      const headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers })
        .then((response) => {
          if (!response.ok) return null; // 304: nothing new
          etag = response.headers.get("ETag") || "";
          return response.json();
        })
        .then((answer) => (answer && answer.stamp !== stamp ? refresh() : null))
        .catch(() => { /* offline for a moment: the next tick tries again */ })
        .finally(() => { asking = false; });
    }, 1000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("score-card");
    if (!root) return;
    start(root);
    follow(root);
    window.setInterval(tickClock, 1000);
  });
})();
