"""Deal entry: the rummy card pad (Biriba, Burraco) and the Barbu contract sheet.

One view (:func:`deal_entry`) for a new deal or a correction, one form per page. The draft deal
travels in the form as a hidden JSON field (:mod:`scorekeeper.entry_state`); every key is a
submit button whose value is an action. A POST applies the action and the page is drawn again
from the match as it is now (the view restart); with htmx only the ``#entry`` partial comes
back, without JavaScript the whole page does. Every draft is judged by the rules core on the
match document (``selectors.match_document`` + ``score_match``) and the engines' meld
readers: no rule is known here. The draft is also kept in the session, so a reload or a trip to
the scoreboard loses nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper import entry_state as st
from scorekeeper.entry_forms import EntryForm
from scorekeeper.inputs import parse_int
from scorekeeper.labels import bonus_name, contract_name, purity
from scorekeeper.models import Match
from scorekeeper.rules import barbu, rummy
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchHeader, MatchResult
from scorekeeper.rules.cards import RANK_NAMES, Card, Suit, parse_card
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.melds import MeldKind, WildPlace
from scorekeeper.selectors import match_document, match_for_owner_or_404
from scorekeeper.services import (
    deal_correct,
    deal_fingerprint,
    deal_record,
    refusal_already_entered,
    refusal_deal_changed,
)

SESSION_PREFIX = "entry-draft"

SUIT_NAMES = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
}


def _suits() -> list[dict[str, Any]]:
    return [
        {
            "code": s,
            "symbol": st.SUIT_SYMBOLS[s],
            "colour": "red" if s in st.RED_SUITS else "black",
            "name": SUIT_NAMES[s],
        }
        for s in st.SUITS
    ]


def _chip(card: str, action: str) -> dict[str, str]:
    return {"label": st.card_label(card), "colour": st.card_colour(card), "action": action}


@dataclass
class Scored:
    """The match scored with the draft in it, or why the rules refuse it."""

    result: MatchResult | None = None
    error: RuleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.result is not None


def _score_with(match: Match, number: int | None, deal: dict[str, Any]) -> Scored:
    if number is None:
        doc = match_document(match, append=deal)
    else:
        doc = match_document(match, replace=(number, deal))
    try:
        return Scored(result=rules_match.score_match(rules_match.parse_document(doc)))
    except RuleError as e:
        return Scored(error=e)


def _replacing(number: int | None) -> list[str]:
    if number is None:
        return []
    return [_("Replace deal %(n)s? The totals after it are worked out again.") % {"n": number}]


def _where_deal(error: RuleError, deal_number: int) -> tuple[str, ...] | None:
    """The part of ``error.where`` inside deal ``deal_number``; None if about another place."""
    where = error.where
    if where and where[0] == f"deal {deal_number}":
        return tuple(where[1:])
    return None


# ---------------------------------------------------------------------------------------------
# Rummy

_MELD_WHERE = re.compile(r"^meld (\d+)\b")
MAIN_BONUSES = {
    "biriba": ("clean_biriba", "dirty_biriba", "clean_trump_biriba", "dirty_trump_biriba"),
    "burraco": ("clean_burraco", "semi_clean_burraco", "dirty_burraco"),
}


def _pretty(card: Card) -> str:
    return st.card_label(str(card))


def describe_meld(ms: rummy.MeldScore) -> dict[str, Any]:
    """A meld's reading as the pad shows it: ``run 4♥–10♥ · clean · clean biriba``, its value
    ``50 + 200``, and what the wild stands for (``JK = 7♣``)."""
    r = ms.reading
    parts: list[str] = []
    if r.kind is MeldKind.RUN:
        shown = [
            r.stands_for if (c is r.wild and r.stands_for is not None) else c
            for c in r.cards
            if not (c is r.wild and r.wild_place is WildPlace.EXTRA)
        ]
        parts.append(
            _("run %(low)s–%(high)s") % {"low": _pretty(shown[0]), "high": _pretty(shown[-1])}
        )
    else:
        assert r.rank is not None
        parts.append(_("set of %(rank)s") % {"rank": RANK_NAMES[r.rank]})
    parts.append(purity(r.purity.value))
    if r.wild is not None:
        if r.wild_place is WildPlace.EXTRA:
            parts.append(_("%(wild)s as a 14th card") % {"wild": _pretty(r.wild)})
        elif r.wild_place is WildPlace.SET:
            assert r.rank is not None
            parts.append(f"{_pretty(r.wild)} = {RANK_NAMES[r.rank]}")
        elif r.stands_for is not None:
            parts.append(f"{_pretty(r.wild)} = {_pretty(r.stands_for)}")
    if ms.bonus:
        parts.append(bonus_name(ms.bonus))
        value = f"{ms.card_points} + {ms.bonus_points}"
    else:
        value = str(ms.card_points)
    return {"reading": " · ".join(parts), "value": value, "error": None}


class RummyPage:
    TEMPLATE = "deal_entry_rummy.html"

    def __init__(self, match: Match, document: dict[str, Any], number: int | None):
        self.match = match
        self.document = document
        self.number = number
        self.game = match.game
        self.engine: Any = rules_match.engine(self.game)
        self.rules = self.engine.parse_rules(dict(document.get("rules") or {}))
        self.scoring = self.engine.Scoring(self.rules)
        self.header = MatchHeader(
            game=self.game,
            players=tuple(document["players"]),
            first_dealer=document["first_dealer"],
        )
        self.side_count = self.header.side_count
        self.deal_number = number if number is not None else len(document["deals"]) + 1

    # -- the draft ----------------------------------------------------------------------------

    def initial_draft(self) -> st.RummyDraft:
        if self.number is not None:
            return st.RummyDraft.from_deal(
                self.document["deals"][self.number - 1],
                game=self.game,
                side_count=self.side_count,
            )
        return st.RummyDraft.new(game=self.game, side_count=self.side_count)

    def load_draft(self, raw: str | dict[str, Any]) -> st.RummyDraft:
        if isinstance(raw, dict):
            return st.RummyDraft.from_json(raw, game=self.game, side_count=self.side_count)
        return st.RummyDraft.loads(raw, game=self.game, side_count=self.side_count)

    def read_draft(self, text: str) -> st.RummyDraft:
        return st.RummyDraft.read(text, game=self.game, side_count=self.side_count)

    def apply(self, draft: st.RummyDraft, action: str) -> None:
        st.rummy_apply(draft, action)

    def deal_for_saving(self, draft: st.RummyDraft) -> dict[str, Any]:
        return draft.deal_json()

    def confirmations(self, draft: st.RummyDraft) -> list[str]:
        """What a player agrees to before this draft is saved (a correction, an empty side)."""
        lines = _replacing(self.number)
        empty = [self.header.side_name(k) for k, s in enumerate(draft.sides) if s.untouched]
        if empty:
            lines.append(
                _("Nothing entered for %(names)s — save anyway?") % {"names": ", ".join(empty)}
            )
        return lines

    # -- the rules' view of the draft ---------------------------------------------------------

    def _trump(self, draft: st.RummyDraft) -> Suit | None:
        return Suit(draft.trump) if draft.trump else None

    def read_meld(self, cards: list[str], trump: Suit | None) -> dict[str, Any]:
        try:
            ms = self.scoring.meld_score(tuple(parse_card(c) for c in cards), trump)
        except RuleError as e:
            return {"reading": None, "value": None, "error": e.text}
        return describe_meld(ms)

    def score_side(self, draft: st.RummyDraft, k: int) -> tuple[Any, RuleError | None]:
        """The side on its own, scored by the engine (the other sides and copies unseen)."""
        raw = draft.sides[k].deal_json(game=self.game)
        try:
            side = rummy.parse_side(raw, spec=self.engine.SPEC)
            one_player = len(self.header.side_seats(k)) == 1
            scored = rummy.score_side(
                side, self.scoring, trump=self._trump(draft), one_player=one_player
            )
        except RuleError as e:
            return None, e
        return scored, None

    def hand_value(self, cards: list[str]) -> int:
        return -sum(self.scoring.card_value(parse_card(c)) for c in cards)

    # -- what the page shows ------------------------------------------------------------------

    def dealer_name(self) -> str:
        return self.header.seat_name(rummy.dealer_of(self.header, self.deal_number - 1))

    def context(self, draft: st.RummyDraft, *, error: RuleError | None) -> dict[str, Any]:
        scored = _score_with(self.match, self.number, draft.deal_json())
        sides = [self.score_side(draft, k) for k in range(self.side_count)]
        tabs = []
        for k in range(self.side_count):
            side_score, side_error = sides[k]
            tabs.append(
                {
                    "index": k,
                    "name": self.header.side_name(k),
                    "active": k == draft.side,
                    "score": None
                    if (side_score is None or draft.sides[k].untouched)
                    else side_score.total,
                    "bad": side_error is not None,
                    "went_out": draft.sides[k].went_out,
                }
            )
        return {
            "game_label": self.match.get_game_display(),
            "is_biriba": self.game == "biriba",
            "is_burraco": self.game == "burraco",
            "pot_label": _("took the biribaki")
            if self.game == "biriba"
            else _("took the pozzetto"),
            "dealer_name": self.dealer_name(),
            "draft": draft,
            "suits": _suits(),
            "ranks": st.RANKS,
            "digits": ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0"),
            "tabs": tabs,
            "side": self._side_context(draft, draft.side, *sides[draft.side], scored.error),
            "verdict": self._verdict(scored, draft),
            "error": error,
        }

    def _verdict(self, scored: Scored, draft: st.RummyDraft) -> dict[str, Any]:
        if not scored.ok:
            assert scored.error is not None
            return {"ok": False, "message": scored.error.message, "code": scored.error.code}
        assert scored.result is not None
        index = self.deal_number - 1
        deal_score = scored.result.deal_scores[index]
        running = scored.result.running[index]
        lines = [
            {"name": self.header.side_name(k), "score": s["total"], "total": running[k]}
            for k, s in enumerate(deal_score["sides"])
        ]
        finished = ""
        if self.number is None and scored.result.finished and scored.result.winner is not None:
            finished = _("This deal ends the match: %(name)s wins.") % {
                "name": self.header.side_name(scored.result.winner)
            }
        empty = [self.header.side_name(k) for k, s in enumerate(draft.sides) if s.untouched]
        return {"ok": True, "lines": lines, "finished": finished, "empty": empty}

    def _side_context(
        self,
        draft: st.RummyDraft,
        k: int,
        score: Any,
        side_error: RuleError | None,
        deal_error: RuleError | None,
    ) -> dict[str, Any]:
        side = draft.sides[k]
        name = self.header.side_name(k)
        # The place inside this side that an error points at (meld 2, hand, final_discard...)
        inside: tuple[str, ...] = ()
        problem: RuleError | None = side_error
        if side_error is not None:
            inside = side_error.where
        elif deal_error is not None:
            where = _where_deal(deal_error, self.deal_number) or ()
            if where and where[0] == name:
                inside, problem = where[1:], deal_error
        trump = self._trump(draft)
        out: dict[str, Any] = {
            "index": k,
            "name": name,
            "mode": side.mode,
            "took_pot": side.took_pot,
            "went_out": side.went_out,
            "score": score.total if score is not None and not side.untouched else None,
            "breakdown": [] if side.untouched else self._breakdown(score),
            # a problem of the side as a whole (not of one meld, the hand or the discard)
            "problem": None,
        }
        placed = False
        target = side.meld_index()
        if side.mode == "cards":
            melds = []
            for i, cards in enumerate(side.melds):
                reading = self.read_meld(cards, trump)
                if problem is not None and _points_at(inside, i):
                    placed = True
                    if reading["error"] is None:
                        reading["error"] = problem.text
                melds.append(
                    {
                        "index": i,
                        "number": i + 1,
                        "target": target == i,
                        "chips": [_chip(c, f"remove:m{i}:{j}") for j, c in enumerate(cards)],
                        **reading,
                    }
                )
            out["melds"] = melds
            out["new_meld_target"] = target is not None and target >= len(side.melds)
            hand_error = None
            if problem is not None and inside and inside[0].startswith("hand"):
                hand_error, placed = problem.text, True
            out["hand"] = {
                "target": side.target == "hand",
                "chips": [_chip(c, f"remove:hand:{j}") for j, c in enumerate(side.hand)],
                "value": self.hand_value(side.hand) if side.hand else None,
                "error": hand_error,
            }
            discard_error = None
            if problem is not None and inside and inside[0].startswith("final_discard"):
                discard_error, placed = problem.text, True
            out["discard"] = {
                # asked only of the side that went out (or that has one recorded)
                "shown": self.game == "burraco"
                and (side.went_out or bool(side.final_discard) or side.target == "discard"),
                "target": side.target == "discard",
                "chip": _chip(side.final_discard, "remove:discard") if side.final_discard else None,
                "error": discard_error,
            }
            if side.target == "hand":
                out["target_label"] = _("cards go to: left in hand")
            elif side.target == "discard":
                out["target_label"] = _("the next card is the closing discard")
            elif target is not None and target < len(side.melds):
                out["target_label"] = _("cards go to: meld %(n)s") % {"n": target + 1}
            else:
                out["target_label"] = _("cards go to: a new meld")
        else:
            kinds = st.BONUS_KINDS.get(self.game, ())
            main = MAIN_BONUSES.get(self.game, ())
            bonuses = [
                {
                    "kind": kind,
                    "label": bonus_name(kind),
                    "count": side.bonuses.get(kind, 0),
                    "main": kind in main,
                }
                for kind in kinds
            ]
            out["totals"] = {
                "melded": side.melded,
                "in_hand_shown": -abs(side.in_hand),
                "target": side.target,
                "bonuses": bonuses,
                "more_bonuses": any(not b["main"] for b in bonuses),
                "more_open": any(b["count"] and not b["main"] for b in bonuses),
            }
            out["target_label"] = (
                _("keypad: melded cards (⇅ switches)")
                if side.target == "melded"
                else _("keypad: cards in hand (⇅ switches)")
            )
        if problem is not None and not placed:
            out["problem"] = problem.message if problem is deal_error else problem.text
        return out

    def _breakdown(self, score: Any) -> list[dict[str, Any]]:
        if score is None:
            return []
        pot = _("no biribaki") if self.game == "biriba" else _("no pozzetto")
        lines = [
            (_("melded cards"), score.melded),
            (_("bonuses"), score.bonuses),
            (_("going out"), score.going_out),
            (_("in hand"), score.in_hand),
            (pot, score.no_pot),
        ]
        return [{"label": label, "value": v} for label, v in lines if v]


def _points_at(inside: tuple[str, ...], meld_index: int) -> bool:
    if not inside:
        return False
    found = _MELD_WHERE.match(inside[0])
    return bool(found) and int(found.group(1)) == meld_index + 1


# ---------------------------------------------------------------------------------------------
# Barbu

COUNTER_LABELS = {
    "tricks": gettext_lazy("Tricks"),
    "hearts": gettext_lazy("Hearts"),
    "queens": gettext_lazy("Queens"),
    "boys": gettext_lazy("Jacks and kings"),
}
SEAT_PICK_LABELS = {
    "ace_of_hearts": gettext_lazy("Who took A♥?"),
    "king_of_hearts": gettext_lazy("Who took K♥?"),
    "last_trick": gettext_lazy("Who took the last trick?"),
}


class BarbuPage:
    TEMPLATE = "deal_entry_barbu.html"

    def __init__(self, match: Match, document: dict[str, Any], number: int | None):
        self.match = match
        self.document = document
        self.number = number
        parsed = rules_match.parse_document(document)
        self.header = parsed.header
        self.rules = parsed.rules
        self.engine = parsed.engine
        self.index = (number - 1) if number is not None else len(parsed.deals)
        self.deal_number = self.index + 1
        self.before = list(parsed.deals[: self.index])  # the deals played before this one
        self.names = list(self.header.players)
        self.declarer = barbu.declarer_of(self.header, self.rules, self.index)
        # One walk through the deals before: this declarer's contracts left, doubles owed.
        self.status = barbu.next_deal(self.header, self.rules, self.before)
        self.contracts = tuple(self.status["contracts"])
        if number is not None:
            # correcting: what the declarer names in no other deal (King: quotas left open)
            found = barbu.contracts_for_deal(self.header, self.rules, parsed.deals, self.index)
            self.contracts = tuple(c.value for c in found)

    # -- the draft ----------------------------------------------------------------------------

    def initial_draft(self) -> st.BarbuDraft:
        if self.number is not None:
            return st.BarbuDraft.from_deal(self.document["deals"][self.number - 1])
        draft = st.BarbuDraft()
        if len(self.contracts) == 1:
            draft.contract = self.contracts[0]
        return draft

    def load_draft(self, raw: str | dict[str, Any]) -> st.BarbuDraft:
        if isinstance(raw, dict):
            return st.BarbuDraft.from_json(raw, contracts=self.contracts)
        return st.BarbuDraft.loads(raw, contracts=self.contracts)

    def read_draft(self, text: str) -> st.BarbuDraft:
        return st.BarbuDraft.read(text, contracts=self.contracts)

    def confirmations(self, draft: st.BarbuDraft) -> list[str]:
        """What a player agrees to before this draft is saved (a correction)."""
        return _replacing(self.number)

    def _contract(self, draft: st.BarbuDraft) -> barbu.Contract | None:
        if draft.contract is None:
            return None
        try:
            return barbu.Contract(draft.contract)
        except ValueError:
            return None

    def _doubles(self, draft: st.BarbuDraft) -> tuple[barbu.Double, ...]:
        return tuple(
            barbu.Double(by, on, level == 2) for (by, on), level in sorted(draft.doubles.items())
        )

    def apply(self, draft: st.BarbuDraft, action: str) -> None:
        verb, _sep, rest = action.partition(":")
        if verb in ("maximum", "family"):
            contract = self._contract(draft)
            seat = parse_int(rest, lo=0, hi=3)
            if contract is None or seat is None:
                raise st.UnknownAction(action)
            doubles = barbu.expand_shortcut(
                verb,
                seat,
                self.declarer,
                contract,
                self._doubles(draft),
                rules=self.rules,
                names=self.names,
            )
            draft.set_doubles([{"by": d.by, "on": d.on, "redoubled": d.redoubled} for d in doubles])
            return
        before = draft.contract
        st.barbu_apply(draft, action, contracts=self.contracts)
        if draft.contract != before:
            self._drop_forbidden_doubles(draft)

    def _drop_forbidden_doubles(self, draft: st.BarbuDraft) -> None:
        """A new contract may forbid doubles made under the old one (in a positive contract only
        the declarer may be doubled): keep only those the rules still allow."""
        contract = self._contract(draft)
        if contract is None:
            return
        kept: list[barbu.Double] = []
        for d in self._doubles(draft):
            refusal = barbu.double_refusal(
                d.by, d.on, declarer=self.declarer, contract=contract, existing=kept,
                rules=self.rules,
            )  # fmt: skip
            if refusal is None:
                kept.append(d)
        draft.set_doubles([{"by": d.by, "on": d.on, "redoubled": d.redoubled} for d in kept])

    def is_split(self, draft: st.BarbuDraft) -> bool:
        contract = self._contract(draft)
        return contract is not None and barbu.is_split(self.rules, contract, self._doubles(draft))

    def deal_for_saving(self, draft: st.BarbuDraft) -> dict[str, Any]:
        if draft.contract is None:
            raise RuleError(
                "no_contract",
                _("{declarer} has not named a contract yet"),
                declarer=self.names[self.declarer],
            )
        return draft.deal_json(with_data=not self.is_split(draft))

    # -- what the page shows ------------------------------------------------------------------

    def context(self, draft: st.BarbuDraft, *, error: RuleError | None) -> dict[str, Any]:
        contract = self._contract(draft)
        split = self.is_split(draft)
        seats = list(range(4))
        scored = Scored()
        if contract is not None:
            scored = _score_with(self.match, self.number, draft.deal_json(with_data=not split))
        declarer = self.declarer
        return {
            "game_label": self.match.get_game_display(),
            "draft": draft,
            "names": self.names,
            "declarer": declarer,
            "declarer_name": self.names[declarer],
            "of": barbu.match_length(self.rules),
            "variant_label": self.rules.variant.label,
            "contracts": [
                {"code": c, "label": contract_name(c), "on": c == draft.contract}
                for c in self.contracts
            ],
            "contract": draft.contract,
            "contract_label": contract_name(draft.contract) if draft.contract else "",
            "positive": bool(contract and contract.positive),
            "doubling": self.rules.doubling,
            "doubles": self._doubles_rows(draft, contract) if contract else [],
            "owed": self._owed(draft),
            "split": split,
            "widgets": [] if (contract is None or split) else self._widgets(draft, contract),
            "seats": [{"seat": s, "name": self.names[s]} for s in seats],
            "suits": _suits(),
            "preview": self._preview(scored) if contract is not None else None,
            "error": error,
        }

    def _doubles_rows(self, draft: st.BarbuDraft, contract: barbu.Contract) -> list[dict[str, Any]]:
        if not self.rules.doubling:
            return []
        existing = self._doubles(draft)
        choices = barbu.allowed_doubles(
            self.declarer, contract, existing, rules=self.rules, names=self.names
        )
        rows = []
        order = [(self.declarer + k) % 4 for k in (1, 2, 3, 0)]
        for by in order:
            buttons = []
            refused = []
            for c in choices:
                if c.by != by:
                    continue
                name = self.names[c.on]
                if c.action == barbu.Action.REDOUBLE:
                    buttons.append(
                        {
                            "label": _("redouble %(name)s") % {"name": name},
                            "on": c.made,
                            "action": f"double:{c.on}:{by}:{1 if c.made else 2}",
                            "kind": "redouble",
                        }
                    )
                elif c.made:
                    level = draft.level(by, c.on)
                    buttons.append(
                        {
                            "label": name,
                            "on": True,
                            "redoubled": level == 2,
                            "action": f"double:{by}:{c.on}:0",
                            "kind": "double",
                        }
                    )
                elif c.allowed:
                    buttons.append(
                        {
                            "label": name,
                            "on": False,
                            "action": f"double:{by}:{c.on}:1",
                            "kind": "double",
                        }
                    )
                else:
                    assert c.reason is not None
                    refused.append({"name": name, "reason": c.reason.text})
            shortcuts = []
            for kind, label, hint in (
                ("maximum", _("maximum"), _("double everyone you may, redouble who doubled you")),
                ("family", _("family"), _("double the other players, not the declarer")),
            ):
                try:
                    after = barbu.expand_shortcut(
                        kind, by, self.declarer, contract, existing, rules=self.rules,
                        names=self.names,
                    )  # fmt: skip
                except RuleError as e:
                    if by != self.declarer or kind == "maximum":
                        refused_shortcut = {"name": label, "reason": e.text}
                        refused.append(refused_shortcut)
                    continue
                if tuple(after) != tuple(existing):
                    shortcuts.append({"label": label, "action": f"{kind}:{by}", "help": hint})
            verb = _("redoubles") if by == self.declarer else _("doubles")
            rows.append(
                {
                    "seat": by,
                    "name": self.names[by],
                    "verb": verb,
                    "is_declarer": by == self.declarer,
                    "buttons": buttons,
                    "shortcuts": shortcuts,
                    "refused": refused,
                }
            )
        return rows

    def _owed(self, draft: st.BarbuDraft) -> list[dict[str, Any]]:
        """The compulsory-double status before this deal, and what this draft pays off."""
        if self.rules.compulsory_doubles is barbu.CompulsoryDoubles.OFF:
            return []
        out = []
        for entry in self.status.get("doubles_owed") or []:
            seat = entry["seat"]
            if not entry["owed"]:
                continue
            now = (seat, self.declarer) in draft.doubles
            out.append(
                {
                    "name": self.names[seat],
                    "owed": entry["owed"],
                    "left": entry["deals_left"],
                    "must": entry["must_double"],
                    "doubling_now": now,
                }
            )
        return out

    def _widgets(self, draft: st.BarbuDraft, contract: barbu.Contract) -> list[dict[str, Any]]:
        widgets = []
        for key in contract.data_keys:
            if key in st.COUNTERS:
                values = draft.count(key)
                want = st.counter_total(key)
                widgets.append(
                    {
                        "kind": "counter",
                        "key": key,
                        "label": COUNTER_LABELS[key],
                        "rows": [
                            {
                                "seat": s,
                                "name": self.names[s],
                                "value": values[s],
                                # what "rest" would give this player: all not counted yet
                                "rest": max(0, want - (sum(values) - values[s])),
                            }
                            for s in range(4)
                        ],
                        "sum": sum(values),
                        "want": want,
                        "ok": sum(values) == want,
                    }
                )
            elif key in st.SEAT_PICKS:
                widgets.append(
                    {
                        "kind": "seat",
                        "key": key,
                        "label": SEAT_PICK_LABELS[key],
                        "chosen": draft.seats.get(key),
                    }
                )
            elif key == "last_two":
                widgets.append(
                    {
                        "kind": "last_two",
                        "rows": [
                            {
                                "which": 0,
                                "label": _("Trick 12 went to"),
                                "chosen": draft.last_two[0],
                            },
                            {
                                "which": 1,
                                "label": _("Trick 13 went to"),
                                "chosen": draft.last_two[1],
                            },
                        ],
                    }
                )
            elif key == "trump":
                widgets.append({"kind": "trump", "chosen": draft.trump})
            elif key == "finish_order":
                widgets.append(
                    {
                        "kind": "domino",
                        "order": [
                            {"place": i + 1, "seat": s, "name": self.names[s]}
                            for i, s in enumerate(draft.finish_order)
                        ],
                        "places": {s: i + 1 for i, s in enumerate(draft.finish_order)},
                        "done": len(draft.finish_order) == 4,
                    }
                )
            elif key == "suits":
                columns = [sum(draft.suits[r][k] for r in range(4)) for k in range(4)]
                widgets.append(
                    {
                        "kind": "ravage",
                        "rows": [
                            {
                                "seat": s,
                                "name": self.names[s],
                                "cells": [
                                    {"suit": st.SUITS[k], "value": draft.suits[s][k]}
                                    for k in range(4)
                                ],
                                "cards": sum(draft.suits[s]),
                                "whole": sum(draft.suits[s]) % 4 == 0,
                            }
                            for s in range(4)
                        ],
                        "columns": [
                            {"suit": st.SUITS[k], "sum": columns[k], "ok": columns[k] == 13}
                            for k in range(4)
                        ],
                        "ok": all(c == 13 for c in columns),
                    }
                )
        return widgets

    def _preview(self, scored: Scored) -> dict[str, Any]:
        if not scored.ok:
            assert scored.error is not None
            return {"ok": False, "message": scored.error.message, "code": scored.error.code}
        assert scored.result is not None
        score = scored.result.deal_scores[self.index]
        running = scored.result.running[self.index]
        before = scored.result.running[self.index - 1] if self.index else [0, 0, 0, 0]
        lines = []
        for line in score.get("settlement") or []:
            by, on, amount = line["by"], line["on"], line["amount"]
            winner, loser = (by, on) if amount >= 0 else (on, by)
            first, second = sorted((by, on))
            lines.append(
                {
                    "a": self.names[first],
                    "b": self.names[second],
                    "factor": line["factor"],
                    "winner": self.names[winner],
                    "loser": self.names[loser],
                    "amount": abs(amount),
                }
            )
        return {
            "ok": True,
            "split": bool(score.get("split")),
            "raw": score["raw"],
            "part": score["doubles"],
            "total": score["total"],
            "sum": sum(score["total"]),
            "lines": lines,
            "before": before,
            "running": running,
            "warnings": [dict(w) for w in score.get("warnings") or []],
            "finished": scored.result.finished and self.number is None,
            "columns": [
                {
                    "name": self.names[s],
                    "raw": score["raw"][s],
                    "part": score["doubles"][s],
                    "total": score["total"][s],
                    "running": running[s],
                }
                for s in range(4)
            ],
        }


# ---------------------------------------------------------------------------------------------
# The views


def _session_key(match: Match, number: int, editing: bool) -> str:
    return f"{SESSION_PREFIX}:{match.pk}:{'edit' if editing else 'new'}:{number}"


def _remember(
    request: HttpRequest, match: Match, key: str, draft: dict[str, Any], next_number: int
) -> None:
    """Keep the draft in the session; a draft of a new deal whose number is no longer the
    next one (it was saved, perhaps from another phone) is forgotten."""
    prefix = f"{SESSION_PREFIX}:{match.pk}:new:"
    current = _session_key(match, next_number, editing=False)
    for old in [k for k in request.session.keys() if k.startswith(prefix) and k != current]:
        del request.session[old]
    request.session[key] = draft


def _scoreboard_url(match: Match) -> str:
    return reverse("match_detail", args=[match.pk])


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def _page(match: Match, document: dict[str, Any], number: int | None) -> Any:
    if match.game == "barbu":
        return BarbuPage(match, document, number)
    return RummyPage(match, document, number)


def _deal_gone(request: HttpRequest, match: Match, number: int) -> HttpResponse:
    messages.error(
        request,
        _("Deal %(n)s is no longer there (it was deleted): nothing was changed.") % {"n": number},
        extra_tags="deal_gone",
    )
    return _redirect(request, _scoreboard_url(match))


def _stale_save(form: EntryForm, deal_number: int, base: str, *, saving: bool) -> RuleError | None:
    """Why a save from this page must be refused, if it was drawn before the match changed:
    a new deal that has been stored since, or a deal under correction changed since; or, for
    a save, if it does not say which deal it was drawn for (a key is applied all the same)."""
    if form.deal_unreadable():
        if not saving:
            return None
        return RuleError(
            "deal_unreadable",
            _(
                "the page did not say which deal it was entering: check the entry below, "
                "then save it again"
            ),
        )
    if not base:
        drawn_for = form.deal_number()
        if drawn_for is not None and drawn_for != deal_number:
            return refusal_already_entered(drawn_for, deal_number)
    elif form.drawn_from() not in ("", base):
        return refusal_deal_changed(deal_number)
    return None


@login_required
@require_http_methods(["GET", "POST"])
def deal_entry(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """Enter the next deal (``number`` None) or correct deal ``number``."""
    match = match_for_owner_or_404(request.user, pk)
    document = match_document(match)
    editing = number is not None
    if editing:
        if not 1 <= number <= len(document["deals"]):
            if request.method == "POST" and number >= 1:
                # A correction of a deal deleted meanwhile (another phone, another tab)
                return _deal_gone(request, match, number)
            raise Http404
    elif match.is_finished:
        messages.info(request, _("This match is finished: no deal can be added."))
        return _redirect(request, _scoreboard_url(match))
    try:
        page = _page(match, document, number)
    except RuleError as e:  # the stored deals no longer pass the rules: nothing to enter on
        messages.error(request, e.message, extra_tags=e.code)
        return _redirect(request, _scoreboard_url(match))
    deal_number = page.deal_number
    key = _session_key(match, deal_number, editing)
    # the deal being corrected as stored now: a save from a page drawn before it changed is
    # refused (see _stale_save)
    base = deal_fingerprint(document["deals"][number - 1]) if editing else ""

    error: RuleError | None = None
    restored = unreadable = confirming = forget = False
    if request.method == "POST":
        form = EntryForm(request.POST)
        draft_json, action = form.cleaned()
        draft = page.initial_draft()
        if draft_json is None:  # too long for a draft, or a character no page sends
            unreadable = True
        elif draft_json:
            try:
                draft = page.read_draft(draft_json)
            except st.UnreadableDraft as e:
                unreadable, error = True, e.refusal  # the place, when there is one to name
        elif action == "save":
            unreadable = True  # a save without a draft has nothing to save
        # The page was drawn before someone else (another phone, a second tab) stored this
        # deal or changed the one being corrected. A save is refused (a deal would be stored
        # twice, or theirs overwritten unseen) and the entry stays on the page, drawn afresh;
        # a key is applied, and the page says why it is now the next deal.
        stale = _stale_save(form, deal_number, base, saving=action == "save")
        if stale is not None and action == "save":
            error = stale
            if unreadable:  # e.g. a Barbu contract that is no longer the declarer's to name
                unreadable, forget = False, True
        elif unreadable:
            # Not a draft this page sent: nothing is saved and no key is applied to it; the
            # page starts again from the stored deal (or a fresh one) and says so.
            pass
        elif action == "save":
            try:
                data = page.deal_for_saving(draft)
                # A correction, or a side with nothing entered, is agreed to first (the
                # confirmation posts the same draft with confirm=yes); a deal the rules refuse
                # is refused at once, there is nothing to agree to.
                confirming = (
                    not form.confirmed()
                    and bool(page.confirmations(draft))
                    and _score_with(match, number, data).ok
                )
                if not confirming:
                    if editing:
                        deal_correct(
                            match=match,
                            number=deal_number,
                            data=data,
                            drawn_from=form.drawn_from() or None,
                        )
                    else:
                        deal_record(match=match, data=data, number=deal_number)
            except RuleError as e:
                if e.code == "deal_gone":  # deleted on another phone while this one saved
                    return _deal_gone(request, match, deal_number)
                error = e
            if error is None and not confirming:
                request.session.pop(key, None)
                if editing:
                    messages.success(request, _("Deal %(n)s corrected.") % {"n": deal_number})
                else:
                    messages.success(request, _("Deal %(n)s saved.") % {"n": deal_number})
                return _redirect(request, _scoreboard_url(match))
        elif action == "reset":
            draft = page.initial_draft()
        elif action and action != "edit":  # "edit": back from a confirmation to the keys
            try:
                page.apply(draft, action)
            except st.UnknownAction:
                pass  # a stale page or a hand-made form: draw the page as it is
            except RuleError as e:
                error = e  # e.g. a doubling shortcut the rules do not allow here
        if error is None and stale is not None and not unreadable:
            error = stale
        # a garbled post leaves the draft kept in the session alone
        if not (unreadable or forget):
            _remember(request, match, key, draft.to_json(), len(document["deals"]) + 1)
    else:
        saved = request.session.get(key)
        initial = page.initial_draft()
        draft = page.load_draft(saved) if isinstance(saved, dict) else initial
        restored = draft.to_json() != initial.to_json()

    context = page.context(draft, error=error)
    context.update(
        {
            "match": match,
            "deal_number": deal_number,
            "editing": editing,
            "post_url": request.path,
            "scoreboard_url": _scoreboard_url(match),
            "draft_json": draft.dumps(),
            "restored": restored,
            "unreadable": unreadable,
            "confirming": confirming,
            "confirm_lines": page.confirmations(draft),
            "base": base,
        }
    )
    template_name = page.TEMPLATE
    if request.htmx:
        template_name += "#entry"
    return TemplateResponse(request, template_name, context)


@login_required
@require_http_methods(["POST"])
def deal_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The Barbu preview (raw scores, settlement per pair, totals) of a posted draft, as the
    ``#preview`` partial. The entry page shows the same preview inline."""
    match = match_for_owner_or_404(request.user, pk)
    if match.game != "barbu":
        raise Http404
    document = match_document(match)
    draft_json, _action = EntryForm(request.POST).cleaned()
    # the deal under correction, if the post names a stored one (else the next deal)
    number = parse_int(request.POST.get("number"), lo=1, hi=len(document["deals"]))
    try:
        page = BarbuPage(match, document, number)
    except RuleError as e:  # the stored deals no longer pass the rules, as in deal_entry
        messages.error(request, e.message, extra_tags=e.code)
        return _redirect(request, _scoreboard_url(match))
    draft = page.load_draft(draft_json) if draft_json else page.initial_draft()
    context = page.context(draft, error=None)
    context.update({"match": match, "post_url": request.path, "deal_number": page.deal_number})
    return TemplateResponse(request, page.TEMPLATE + "#preview", context)
