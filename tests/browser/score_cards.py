"""A Burraco score card played from two phones: the referee logs in, each line enters or
confirms its hands (by match points, or counted from the cards)."""

from __future__ import annotations

PASSWORD = "tavolo-test"


def go(page, selector: str) -> None:
    with page.expect_navigation():
        page.locator(selector).click()


def log_in(page, base: str, next_url: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", "referee")
    page.fill("#id_password", PASSWORD)
    go(page, "main form button[type=submit]")


def choose_line(phone, line: str) -> None:
    go(phone, f'#line-choice button[value="{line}"]')
    assert phone.locator("#my-line").count() == 1


def enter_hand(phone, number: int, mp: tuple[int, int] | None) -> None:
    assert f"Hand {number}" in phone.locator("#hand-entry h2").inner_text()
    if mp is None:
        fill_cards(phone)
    else:
        phone.fill("#NS-mp", str(mp[0]))
        phone.fill("#EW-mp", str(mp[1]))
    go(phone, "#save-hand")
    assert phone.locator(f"#card-hands #hand-{number}").count() == 1, phone.content()


def fill_cards(phone) -> None:
    """The hand counted from the cards (CARDS): NS closed, both lines took the pozzetto."""
    phone.check('input[name="mode"][value="cards"]')
    # Choosing "from the cards" opens its fields (static/burraco_card.js).
    assert phone.locator("details.cards-fields").evaluate("d => d.open")
    phone.select_option("#closed", CARDS["closed"])
    for name, value in CARDS.items():
        if name != "closed":
            phone.fill(f'input[name="{name}"]', value)
    phone.check('input[name="NS-pozzetto"]')
    phone.check('input[name="EW-pozzetto"]')


def play_table(ns_phone, ew_phone, link: str, hands: list[tuple[int, int] | None]) -> None:
    """NS's phone enters every hand; EW's phone (another session) confirms the card."""
    ns_phone.goto(link)
    assert ns_phone.url.endswith("/card/")
    choose_line(ns_phone, "NS")
    for number, mp in enumerate(hands, 1):
        enter_hand(ns_phone, number, mp)
    assert ns_phone.locator("#wait-confirm").count() == 1
    ew_phone.goto(link)
    choose_line(ew_phone, "EW")
    assert ew_phone.locator("#hand-entry").count() == 0
    go(ew_phone, "#confirm-card")
    assert ew_phone.locator("#card-done").count() == 1


# Read only: every test of a worker shares it (a pop here once broke the next test).
CARDS = {
    "closed": "NS",
    "NS-melded-aces": "4",
    "NS-melded-high": "10",
    "NS-melded-low": "10",
    "NS-clean": "1",
    "NS-in_hand": "0",
    "EW-melded-high": "7",
    "EW-in_hand": "40",
}
