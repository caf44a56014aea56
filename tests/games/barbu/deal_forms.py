"""A docs/rules/format.md deal as the deal form posts it (table entry and the organiser's
correction)."""

from __future__ import annotations


def form_data(deal: dict, names: list[str], number: int) -> dict:
    """A docs/rules/format.md deal as the entry form posts it (players by seat index)."""
    seat = {name: str(i) for i, name in enumerate(names)}
    data: dict = {"number": str(number), "contract": deal["contract"]}
    if deal.get("trump"):
        data["trump"] = str(deal["trump"]).upper()
    doubles = deal.get("doubles") or []
    data["double"] = [f"{seat[d['by']]}-{seat[d['against']]}" for d in doubles]
    data["redouble"] = [
        f"{seat[d['by']]}-{seat[d['against']]}" for d in doubles if d.get("redoubled")
    ]
    result = deal["result"]
    contract = deal["contract"]
    if contract == "barbu":
        data["king_of_hearts"] = seat[result["king_of_hearts"]]
    elif contract in ("hearts", "queens"):
        for name, cards in result[contract].items():
            for card in cards:
                data[f"{contract}_{card.upper()}"] = seat[name]
    elif contract == "last_two":
        data["twelfth"] = seat[result["twelfth"]]
        data["thirteenth"] = seat[result["thirteenth"]]
    elif contract in ("no_tricks", "trumps"):
        for name, count in result["tricks"].items():
            data[f"tricks_{seat[name]}"] = str(count)
    elif contract == "domino":
        for place, name in enumerate(result["order"]):
            data[f"place_{place}"] = seat[name]
    return data


BARBU = {
    "dealer": "Anna",
    "contract": "barbu",
    "doubles": [{"by": "Bruno", "against": "Anna"}],
    "result": {"king_of_hearts": "Carla"},
}


HEARTS = {
    "dealer": "Anna",
    "contract": "hearts",
    "result": {
        "hearts": {
            "Anna": ["AH", "KH", "QH"],
            "Bruno": ["JH", "TH", "9H", "8H"],
            "Carla": ["7H", "6H", "5H"],
            "Dario": ["4H", "3H", "2H"],
        }
    },
}


TRUMPS = {
    "dealer": "Anna",
    "contract": "trumps",
    "trump": "S",
    "doubles": [{"by": "Carla", "against": "Anna", "redoubled": True}],
    "result": {"tricks": {"Anna": 5, "Bruno": 3, "Carla": 3, "Dario": 2}},
}
