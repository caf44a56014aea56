"""A Barbu table page played from a phone: a deal entered tap by tap and saved."""

from __future__ import annotations


def click(page, selector: str) -> None:
    page.locator(selector).click()


def enter_deal(
    page, deal: dict, names: list[str], *, leave_out: dict | None = None, steps: bool = False
) -> None:
    """Tap one deal into the entry form (players by seat index, as the page names them)."""
    seat = {name: i for i, name in enumerate(names)}
    contract = deal["contract"]
    click(page, f'label[for="contract-{contract}"]')
    if contract == "trumps":
        click(page, f'label[for="trump-{deal["trump"].upper()}"]')
    for double in deal.get("doubles") or []:
        if leave_out is not None and double == leave_out:
            continue
        pair = f"{seat[double['by']]}-{seat[double['against']]}"
        click(page, f'label[for="double-{pair}"]')
        if double.get("redoubled"):
            click(page, f'label[for="redouble-{pair}"]')
    result = deal["result"]
    if contract == "barbu":
        click(page, f'label[for="king_of_hearts-{seat[result["king_of_hearts"]]}"]')
    elif contract in ("hearts", "queens"):
        for name, cards in result[contract].items():
            for card in cards:
                click(page, f'label[for="{contract}_{card.upper()}-{seat[name]}"]')
    elif contract == "last_two":
        click(page, f'label[for="twelfth-{seat[result["twelfth"]]}"]')
        click(page, f'label[for="thirteenth-{seat[result["thirteenth"]]}"]')
    elif contract in ("no_tricks", "trumps"):
        for name, count in result["tricks"].items():
            if steps:  # the +/− buttons, as a thumb would
                for _ in range(count):
                    click(page, f'button.step[data-step="1"][data-target="tricks_{seat[name]}"]')
            else:
                page.fill(f"#tricks_{seat[name]}", str(count))
    elif contract == "domino":
        for place, name in enumerate(result["order"]):
            click(page, f'label[for="place_{place}-{seat[name]}"]')


def save(page) -> None:
    with page.expect_navigation():
        click(page, "#save")
