// The Burraco score card at the table (templates/games/burraco/card.html).
//
// - The way of entering a hand that is chosen shows its own fields only; opening "Count
//   from the cards" chooses it. Without this script both stay usable and the chosen radio
//   decides.
// - A form sent is sent once: its buttons are disabled while it is on its way (the save
//   button says "Saving…"); the server refuses a second copy anyway (the form's hand
//   number and key, games/burraco/table_views.py).
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
          if (button.dataset.busy) button.textContent = button.dataset.busy;
        });
      }, 0);
    });
  }

  // Back to a page kept by the browser: its forms may be sent again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    document.querySelectorAll("#score-card form").forEach((form) => {
      delete form.dataset.sending;
      form.querySelectorAll("button").forEach((button) => { button.disabled = false; });
    });
  });

  function start(root) {
    const form = root.querySelector(".hand-form");
    if (form) modes(form);
    root.querySelectorAll("form").forEach(sendOnce);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("score-card");
    if (root) start(root);
  });
})();
