"""The rummy draft of a deal (:class:`RummyDraft`: every side, this phone's view) and the pad's keys
(:func:`rummy_apply`)."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from scorekeeper.entry.drafts.common import (
    BONUS_KINDS,
    JOKER,
    MAX_CARDS,
    MAX_NAME,
    MAX_NUMBER,
    MAX_RESTARTS,
    NEW_MELD,
    NOBODY,
    RANKS,
    SUITS,
    VERSION,
    UnknownAction,
    UnreadableDraft,
    _cards,
    _index,
    _int,
    _json_object,
    _meld_id,
    _same,
    _seat,
    _split,
    _strict_object,
    is_card,
)
from scorekeeper.entry.drafts.side import (
    _SIDE_DEFAULTS,
    SideDraft,
    _side_compact,
)
from scorekeeper.inputs import parse_int
from scorekeeper.rules import burraco_three


@dataclass
class RummyDraft:
    game: str
    sides: list[SideDraft]
    side: int = 0  # this phone's open tab
    suit: str = "H"  # the suit chosen on this phone's pad
    trump: str | None = None  # Biriba
    thru: bool = False  # this phone's: the next rank ends a run ("…" pressed)
    # this phone's, for the next key only: the card a suit key just added to a set (K♦ after
    # K♠): the rank key a player taps next out of habit ("♦ K") names it, it adds no other
    by_suit: str | None = None
    # Burraco for three: who played alone (a seat: side 0 is that player, side 1 the pair,
    # the third side unused), NOBODY (nobody took a pozzetto: a side a seat), None: not said
    solo: int | str | None = None
    # how often the table started this deal over ("Start over"): a phone's view drawn before
    # the last start is not this deal's any more (its taps went to a hand or a meld now gone)
    restarted: int = 0
    # who started it over last (shared, with ``restarted``), for the other phones' notice
    restarted_by: str = ""
    # this phone's, for the page drawn now only: its view was drawn before the table last
    # started the deal over (another phone did): its side and suit are kept, the page says so
    restarted_since: bool = False

    @classmethod
    def new(cls, *, game: str, side_count: int) -> RummyDraft:
        return cls(game=game, sides=[SideDraft() for _ in range(side_count)])

    # -- shared and own -----------------------------------------------------------------------

    def content_json(self) -> dict[str, Any]:
        """What the table shares (stored once for the match)."""
        out = {
            "v": VERSION,
            "game": self.game,
            "trump": self.trump,
            "sides": [s.content_json() for s in self.sides],
        }
        if self.solo is not None:
            out["solo"] = self.solo
        if self.restarted:
            out["restarted"] = self.restarted
        if self.restarted_by:
            out["restarted_by"] = self.restarted_by
        return out

    def view_json(self) -> dict[str, Any]:
        """Where this phone's taps go: its open side, its chosen suit, each side's target."""
        return {
            "side": self.side,
            "suit": self.suit,
            "thru": self.thru,
            "by_suit": self.by_suit,
            "targets": [s.target for s in self.sides],
            "restarted": self.restarted,
        }

    def with_view(self, view: Any) -> RummyDraft:
        """This draft seen from a phone whose view is ``view`` (kept where it still fits). A
        view from before the table last started the deal over keeps the phone's own choices,
        its open side and its suit (another phone's Start over never moves it to another
        side: issue 24), not where its taps went (a hand, a meld now gone): they go to a new
        meld, and :attr:`restarted_since` says so for the page."""
        if not isinstance(view, dict):
            return self
        self.side = _int(view.get("side"), lo=0, hi=len(self.sides) - 1)
        if view.get("suit") in SUITS:
            self.suit = view["suit"]
        if _int(view.get("restarted"), lo=0, hi=MAX_RESTARTS) != self.restarted:
            self.restarted_since = True
            return self
        self.thru = view.get("thru") is True
        self.by_suit = view["by_suit"] if is_card(view.get("by_suit") or "") else None
        targets = view.get("targets")
        if isinstance(targets, list) and len(targets) == len(self.sides):
            for side, target in zip(self.sides, targets, strict=True):
                if isinstance(target, str):
                    side.target = target
                    side.fix_target()
        return self

    @classmethod
    def compose(cls, content: Any, view: Any = None, *, game: str, side_count: int) -> RummyDraft:
        """The stored deal in progress (``content``) with a phone's own ``view``."""
        return cls.from_json(content, game=game, side_count=side_count).with_view(view)

    def copy(self) -> RummyDraft:
        return copy.deepcopy(self)

    # -- the page's JSON ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The draft as a page draws it and posts it back: shared and own together."""
        return {
            "v": VERSION,
            "game": self.game,
            "side": self.side,
            "suit": self.suit,
            "thru": self.thru,
            "by_suit": self.by_suit,
            "trump": self.trump,
            "sides": [s.to_json() for s in self.sides],
            **({"solo": self.solo} if self.solo is not None else {}),
            "restarted": self.restarted,
        }

    def dumps(self) -> str:
        """The page's copy, its keys at their default value left out (``from_json`` reads
        them back as those defaults): every tap's answer carries it."""
        raw = self.to_json()
        for key, default in (("thru", False), ("by_suit", None), ("trump", None), ("restarted", 0)):
            if raw[key] == default:
                del raw[key]
        raw["sides"] = [_side_compact(s) for s in raw["sides"]]
        return json.dumps(raw, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: Any, *, game: str, side_count: int) -> RummyDraft:
        draft = cls.new(game=game, side_count=side_count)
        if not isinstance(raw, dict) or raw.get("game") != game:
            return draft
        sides = raw.get("sides")
        if isinstance(sides, list) and len(sides) == side_count:
            draft.sides = [SideDraft.from_json(s, game=game) for s in sides]
        draft.side = _int(raw.get("side"), lo=0, hi=side_count - 1)
        if raw.get("suit") in SUITS:
            draft.suit = raw["suit"]
        draft.thru = raw.get("thru") is True
        draft.by_suit = raw["by_suit"] if is_card(raw.get("by_suit") or "") else None
        if game == "biriba" and raw.get("trump") in SUITS:
            draft.trump = raw["trump"]
        draft.solo = _solo(raw.get("solo"), game, side_count)
        draft.restarted = _int(raw.get("restarted"), lo=0, hi=MAX_RESTARTS)
        by = raw.get("restarted_by")
        draft.restarted_by = by[:MAX_NAME] if isinstance(by, str) and draft.restarted else ""
        return draft

    @classmethod
    def loads(cls, text: str | None, *, game: str, side_count: int) -> RummyDraft:
        return cls.from_json(_json_object(text), game=game, side_count=side_count)

    @classmethod
    def read(cls, text: str | None, *, game: str, side_count: int) -> RummyDraft:
        """The draft a page posted: unlike :meth:`loads`, which keeps what it can, anything
        that is not a whole draft of this game raises :class:`UnreadableDraft`."""
        raw = _strict_object(text)
        sides = raw.get("sides")
        if (
            raw.get("game") != game
            or not isinstance(sides, list)
            or len(sides) != side_count
            or not all(isinstance(s, dict) for s in sides)
        ):
            raise UnreadableDraft("not a draft of this game")
        draft = cls.from_json(raw, game=game, side_count=side_count)
        if game == "biriba":
            _same({"trump": None, **raw}, draft.to_json(), ("trump",))
        _same({"solo": None, **raw}, {"solo": draft.solo}, ("solo",))
        for posted, side in zip(sides, draft.sides, strict=True):
            posted = {**_SIDE_DEFAULTS, **posted}  # as dumps() leaves them out
            melds = posted.get("melds")
            if not isinstance(melds, list):
                raise UnreadableDraft("melds")
            clean = side.to_json()
            keys = ("mode", "melds", "hand", "took_pot", "went_out", "melded", "in_hand")
            keys += ("hand_points", "points")
            _same(posted, clean, (*keys, "bonuses"))
            if game == "burraco":
                _same(posted, clean, ("final_discard",))
        return draft

    @classmethod
    def from_deal(cls, deal: dict[str, Any], *, game: str, side_count: int) -> RummyDraft:
        """The draft of a stored deal (to correct it)."""
        draft = cls.new(game=game, side_count=side_count)
        if game == "biriba" and deal.get("trump") in SUITS:
            draft.trump = deal["trump"]
        if "solo" in deal:  # Burraco for three: null when nobody took a pozzetto
            draft.solo = _solo(NOBODY if deal["solo"] is None else deal["solo"], game, side_count)
        for side, raw in zip(draft.sides, deal.get("sides") or [], strict=False):
            if not isinstance(raw, dict):
                continue
            side.took_pot = raw.get("took_pot") is True
            side.went_out = raw.get("went_out") is True
            totals = raw.get("totals")
            if isinstance(totals, dict) and "points" in totals:
                side.mode, side.target = "points", "points"
                side.points = _int(totals.get("points"), lo=-MAX_NUMBER, hi=MAX_NUMBER)
                if not isinstance(raw.get("took_pot"), bool):
                    side.took_pot = None  # not said: the figure holds it
            elif isinstance(totals, dict):
                side.mode = "totals"
                side.target = "melded"
                side.melded = _int(totals.get("melded"))
                side.in_hand = _int(totals.get("in_hand"))
                bonuses = totals.get("bonuses")
                if isinstance(bonuses, dict):
                    side.bonuses = {k: v for k, v in bonuses.items() if _int(v, lo=1)}
            else:
                side.melds = [_cards(m) for m in raw.get("melds") or []]
                side.ids = list(range(len(side.melds)))
                side.next_id = len(side.melds)
                side.hand = _cards(raw.get("hand"))
                if raw.get("in_hand") is not None:
                    side.hand_points = _int(raw.get("in_hand"), lo=0, hi=MAX_NUMBER)
                discard = raw.get("final_discard")
                if game == "burraco" and isinstance(discard, str) and is_card(discard):
                    side.final_discard = discard
                side.target = NEW_MELD
        return draft

    @property
    def open_side(self) -> SideDraft:
        return self.sides[self.side]

    def deal_json(self, *, each_alone: bool = False) -> dict[str, Any]:
        """The deal as the match document writes it (match-format.md). Burraco for three:
        ``solo`` (null when nobody took a pozzetto) and the two sides of a solo player and a
        pair, unless every player plays ``each_alone`` in this deal (the answer is left out)."""
        deal: dict[str, Any] = {}
        sides = self.sides
        if self.game == "biriba":
            deal["trump"] = self.trump
        if self.solo is not None and not each_alone:
            deal["solo"] = None if self.solo == NOBODY else self.solo
            if self.solo != NOBODY:
                sides = sides[:2]
        deal["sides"] = [s.deal_json(game=self.game) for s in sides]
        return deal


def _solo(value: Any, game: str, side_count: int) -> int | str | None:
    """Who played alone, as a draft holds it (Burraco for three only), or None."""
    if game != "burraco" or side_count != burraco_three.SEATS:
        return None
    if value == NOBODY:
        return NOBODY
    return _seat(value, side_count)


def _seen_card(seen: SideDraft, where: str, position: int) -> str | None:
    """The card at ``position`` of a meld, the hand or the discard on the phone's screen."""
    if where == "hand":
        cards = seen.hand
    elif where == "discard":
        return seen.final_discard
    else:
        cards = seen.meld(_meld_id(where)) or []
    return cards[position] if 0 <= position < len(cards) else None


def rummy_apply(
    draft: RummyDraft, action: str, *, seen: RummyDraft | None = None, sets: bool = True
) -> RummyDraft:
    """Apply one pad action to the draft (in place) and return it.

    ``seen``: the draft as the phone's screen showed it when the key was pressed (the draft
    itself when not given): a toggle sets the other way what the screen showed, a card tapped
    away is the card the screen showed there.
    ``sets``: whether the rules allow sets; then a suit key pressed while the meld is a set so
    far (``K♠``, ``K♠ K♦``...) adds a card of that rank in that suit (a set is entered rank
    first, then one tap per suit); otherwise a suit key only chooses the suit.
    Raises :class:`UnknownAction` for anything the pad would not send.
    """
    if seen is None:
        seen = draft.copy()
    parts = _split(action)
    verb, args = parts[0], parts[1:]
    side = draft.open_side
    seen_side = seen.sides[draft.side]
    n = len(draft.sides)
    thru, draft.thru = draft.thru, False  # "…" holds for the next key only
    by_suit, draft.by_suit = draft.by_suit, None  # so does the card a suit key added

    def rank_key(rank: str) -> None:
        if by_suit == rank + draft.suit and side.mode == "cards":
            return  # "♦ K" after K♠: the suit key added K♦, its rank names that card again
        if thru and side.mode == "cards" and side.set_run_end(draft.suit, rank):
            pass
        elif not side.fill_run_to(draft.suit, rank):
            side.add_to_meld(rank + draft.suit)

    match verb, args:
        case "card", [card] if is_card(card) and card != JOKER and card[:-1] != "2":
            # a natural card named whole (a desk's "7h"): its suit chosen, then as its rank key
            draft.suit = card[-1]
            rank_key(card[:-1])
        case "card", [card] if is_card(card):  # a two (natural or wild as it stands), the joker
            side.add_to_meld(card)
        case "rank", [rank] if rank in RANKS:
            rank_key(rank)
        case "thru", []:
            # "first … last": the next rank key ends the run begun by the meld's last card
            draft.thru = not thru and side.mode == "cards" and side.target_position() is not None
        case "suit", [suit] if suit in SUITS:
            draft.suit = suit
            at = side.target_position()
            lone = side.melds[at] if at is not None and len(side.melds[at]) == 1 else [JOKER]
            if lone[0] != JOKER and lone[0][-1] == suit:
                pass  # the suit of the one card there: chosen (♥ 3 ♥ 4 is a run, not 3♥ 3♥)
            elif sets and side.mode == "cards" and (rank := side.set_rank()) is not None:
                side.add_card(rank + suit)
                draft.by_suit = rank + suit
        case "hand", ["points"]:
            if side.mode == "cards":
                if side.hand_points is None:
                    side.hand_points = 0
                side.target = "hand_points"
        case "hand", ["cards"]:
            if side.mode == "cards":
                side.hand_points = None
                side.target = "hand"
        case "joker", []:
            side.add_card(JOKER)
        case "back", []:
            side.backspace()
        case "new_meld", []:
            if side.mode == "cards":
                side.target = NEW_MELD
        case "target", [where]:
            if side.mode == "totals" and where in ("melded", "in_hand"):
                side.target = where
            elif side.mode == "points" and where == "points":
                side.target = where
            elif side.mode == "cards" and where == "hand" and side.hand_points is not None:
                side.target = "hand_points"  # the hand is counted by its value: the keypad
            elif side.mode == "cards" and where in ("hand", "discard", NEW_MELD):
                if where == "discard" and draft.game != "burraco":
                    raise UnknownAction(action)
                side.target = where
            elif side.mode == "cards" and side.position(_meld_id(where)) is not None:
                side.target = where
            elif side.mode == "cards" and _meld_id(where) is not None:
                side.target = NEW_MELD  # a meld another phone has removed meanwhile
            else:
                raise UnknownAction(action)
        case "remove", [where, position] if (
            at := parse_int(position, lo=0, hi=MAX_CARDS)
        ) is not None and (where in ("hand", "discard") or _meld_id(where) is not None):
            side.remove(where, at, _seen_card(seen_side, where, at))
        case "remove", ["discard"]:
            side.remove("discard", 0, seen_side.final_discard)
        case "side", [k]:
            draft.side = _index(k, n)
        case "solo", [k] if draft.game == "burraco" and n == burraco_three.SEATS:
            # Burraco for three: who played alone (one tap answers the pots it implies)
            if k == NOBODY:
                draft.solo = NOBODY
                for s in draft.sides:  # nobody took a pozzetto
                    s.took_pot, s.went_out = False, False
            else:
                was = draft.solo
                draft.solo = _index(k, n)
                draft.sides[0].took_pot = True  # the solo player took the 18 cards
                if was == NOBODY:  # the answers "nobody" gave are not the pair's
                    for s in draft.sides[1:]:
                        s.took_pot = None
                draft.side = min(draft.side, 1)
        case "pot", [k]:  # "took it": an answer, the same however often it is pressed
            draft.sides[_index(k, n)].took_pot = True
        case "pot_no", [k]:  # "did not take it"
            draft.sides[_index(k, n)].took_pot = False
        case "went_out", [k]:
            chosen = _index(k, n)
            out = not seen.sides[chosen].went_out
            for i, s in enumerate(draft.sides):
                if i == chosen:
                    s.went_out = out
                elif out:
                    s.went_out = False
            if out:
                # going out needs the pot: tick it too (the rules still judge it)
                draft.sides[chosen].took_pot = True
        case "trump", [suit] if draft.game == "biriba" and suit in SUITS:
            # sets, never toggles: a second phone tapping the trump its screen shows chosen
            # keeps it (issue 24: it cleared it for everyone); "no trump" is its own key
            draft.trump = suit
        case "trump", ["none"] if draft.game == "biriba":
            draft.trump = None
        case "mode", [mode] if mode in ("cards", "totals", "points"):
            # a table counts every side one way: the sides with nothing entered follow
            for other in draft.sides:
                if other is side or (other.untouched and other.took_pot is None):
                    other.mode = mode
                    other.target = {"totals": "melded", "points": "points"}.get(mode, NEW_MELD)
        case "digit", [d] if len(d) == 1 and (digit := parse_int(d, lo=0, hi=9)) is not None:
            if side.mode in ("totals", "points"):
                side.digit(digit)
            elif side.target == "hand_points":
                side.hand_digit(digit)
        case "sign", []:
            if side.mode in ("totals", "points"):
                side.flip_sign()
        case "next_field", []:
            # the keypad writes to the other number (melded cards / cards in hand)
            if side.mode == "totals":
                side.target = "in_hand" if side.target == "melded" else "melded"
            elif side.target == "hand_points":
                side.target = NEW_MELD  # back to the cards' keys
        case "clear", []:
            if side.mode in ("totals", "points"):
                side._set_number(0)
                side.minus = False
            elif side.target == "hand_points":
                side.hand_points = 0
        case "step", [("melded" | "in_hand") as target, delta] if (
            amount := parse_int(delta, lo=-MAX_NUMBER, hi=MAX_NUMBER, signed=True)
        ) is not None:
            side.step(target, amount)
        case "bonus", [kind, delta] if kind in BONUS_KINDS.get(draft.game, ()) and delta in (
            "+1",
            "-1",
        ):
            side.bonus(kind, int(delta))
        case _:
            raise UnknownAction(action)
    for s in draft.sides:
        s.fix_target()
    return draft
