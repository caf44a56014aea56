// The Burraco score card at the table (templates/games/burraco/card.html): the way of
// entering a hand that is chosen shows its own fields only; opening "Count from the cards"
// chooses it. Without this script both stay usable and the chosen radio decides.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector(".hand-form");
  if (!form) return;
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
});
