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

  function start(root) {
    const form = root.querySelector(".hand-form");
    if (form && !form.dataset.ready) modes(form);
    root.querySelectorAll("form").forEach(sendOnce);
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
          if (!fresh || root.querySelector("form[data-sending]")) return;
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
      if (document.hidden || asking || root.querySelector("form[data-sending]")) return;
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
  });
})();
