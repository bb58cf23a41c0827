"""What the new-match page carries from one drawing to the next.

A switch of the game or of the number of players, a known player's chip, Barbu's "Check the
values": each submits the whole form as a GET of the page, which draws it again with what was
typed. What the new drawing has no box for is not dropped: it rides along in hidden fields, and
comes back when its box does. A house rule of another game is kept under that game's name
(``biriba-opt_target``: a Biriba target typed as 2500 is still 2500 after a look at Burraco);
an option of another table of the same game under its own (``opt_match_deals`` while three play
Burraco); the house values of another game under their prefix (``house-…``, ``burraco_house-…``).
Only what differs from the game's default is kept, so that the address stays short.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.forms import PLAYER_COUNTS, MatchForm
from scorekeeper.inputs import parse_int
from scorekeeper.matches import barbu_house, burraco_house
from scorekeeper.models import Game, name_key

#: The house values' fields of each game that has them (their forms' prefixes).
HOUSE_PREFIXES: dict[str, str] = {
    Game.BARBU: f"{barbu_house.PREFIX}-",
    Game.BURRACO: f"{burraco_house.PREFIX}-",
}
#: The chip of a known player: its name fills the first empty seat.
FILL_SEAT = "fill_seat"


def table_choice(source: Mapping[str, str]) -> tuple[str, int]:
    """The game and the number of players: a switch button's value wins over the current."""
    game = source.get("switch_game") or source.get("game")
    if game not in PLAYER_COUNTS:
        game = Game.BIRIBA
    return game, _seats_of(game, source.get("switch_seats") or source.get("seats"))


def _seats_of(game: str, value: str | None) -> int:
    counts = PLAYER_COUNTS[game]
    seats = parse_int(value, lo=0, hi=max(counts))
    if seats not in counts:
        seats = 4 if 4 in counts else max(counts)  # Barbu's five (Salade) only when asked
    return seats


def carried(query: Mapping[str, str], *, game: str, seats: int) -> dict[str, str]:
    """The form's initial values from a switch (or a chip) of the page drawn before: the
    names, the first dealer while that seat exists, the confirmation, and the house rules of
    ``game`` (typed on that page, or kept from an earlier look at it); a chip's name in the
    first empty seat."""
    same_game = query.get("game") == game
    kept = f"{game}-opt_"
    values: dict[str, str] = {}
    for key, value in query.items():
        if key.startswith("player_"):
            values[key] = value
        elif key.startswith("opt_") and same_game:
            values[key] = value
        elif key.startswith(kept) and not same_game:
            values[key.removeprefix(f"{game}-")] = value
    if query.get("first_dealer", "") in {str(seat) for seat in range(seats)}:
        values["first_dealer"] = query["first_dealer"]
    if query.get("confirmation") in ("off", "on"):
        values["confirmation"] = query["confirmation"]
    name = (query.get(FILL_SEAT) or "").strip()
    if name:
        seat_fill(values, seats=seats, name=name)
    return values


def seat_fill(values: dict[str, str], *, seats: int, name: str) -> None:
    """Put ``name`` in the first empty seat, unless it sits in one already (the chip's script
    may have put it there before the page was asked) or every seat is taken."""
    taken = [(values.get(f"player_{seat}") or "").strip() for seat in range(seats)]
    if name_key(name) in {name_key(n) for n in taken if n}:
        return
    for seat, sitting in enumerate(taken):
        if not sitting:
            values[f"player_{seat}"] = name
            return


def kept_fields(source: Mapping[str, str], *, form: MatchForm) -> list[tuple[str, str]]:
    """The hidden fields of the page drawn for ``form``: what ``source`` (the page drawn
    before, or a start refused) holds that this drawing has no box for."""
    game = form.game
    previous = source.get("game")
    other_games = [g for g in PLAYER_COUNTS if g != game]
    others_kept = tuple(f"{g}-opt_" for g in other_games)
    others_house = tuple(HOUSE_PREFIXES[g] for g in other_games if g in HOUSE_PREFIXES)
    left = _left_form(previous, source) if previous != game else None
    kept: dict[str, str] = {}
    for key, value in source.items():
        if value == "":
            continue
        if key.startswith("opt_"):
            if previous == game:
                if key not in form.fields:  # an option of another table of this game
                    kept[key] = value
            elif left is not None and value != _initial(left, key):
                kept[f"{previous}-{key}"] = value  # the game just left
        elif key.startswith(others_kept) or key.startswith(others_house):
            kept[key] = value
    return sorted(kept.items())


def _left_form(previous: str | None, source: Mapping[str, str]) -> MatchForm | None:
    """The form of the game the page was drawn for, when the switch left it (its defaults)."""
    if previous not in PLAYER_COUNTS:
        return None
    return MatchForm(game=previous, seats=_seats_of(previous, source.get("seats")))


def _initial(form: MatchForm, key: str) -> str | None:
    if key not in form.fields:
        return None
    initial = form.initial.get(key, form.fields[key].initial)
    return None if initial is None else str(initial)
