"""The rummy card pad (Biriba, Burraco): what it shows of the deal in progress.

Every meld is read by the engine as it is tapped ("run 4♥–10♥ · clean · clean biriba",
"50 + 200", what a wild stands for), each side is scored on its own as it fills
(``score_side_alone``), and the whole deal is judged on the match document; a refusal is shown
where its structured place points (a meld, the hand, the closing discard, the side). No rule
is known here.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scorekeeper import rule_messages
from scorekeeper.entry import drafts as st
from scorekeeper.entry.common import Scored, chip, counted_totals, replacing, score_with, suits
from scorekeeper.labels import MINUS, bonus_name, purity
from scorekeeper.models import Match
from scorekeeper.rules import burraco_three, rummy
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.cards import RANK_NAMES, Card, Suit, parse_card
from scorekeeper.rules.errors import Place, RuleError
from scorekeeper.rules.melds import MeldKind, WildPlace
from scorekeeper.selectors import match_document
from scorekeeper.standing import match_state, state_after

MAIN_BONUSES = {
    "biriba": ("clean_biriba", "dirty_biriba", "clean_trump_biriba", "dirty_trump_biriba"),
    "burraco": ("clean_burraco", "semi_clean_burraco", "dirty_burraco"),
}
DIGITS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")


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


def _inside_side(error: RuleError | None, deal_number: int, side: int) -> Place | None:
    """Where ``error`` points inside side ``side`` of deal ``deal_number`` (None: elsewhere)."""
    if error is None:
        return None
    place = error.place
    if place.deal == deal_number and place.side == side:
        return place
    return None


def _mode_of(sides: Any) -> str:
    """How the sides of a deal as stored were counted: "points" (each by its points alone),
    "totals" (each by totals) or "cards"."""
    if not sides or not all(isinstance(side, dict) and "totals" in side for side in sides):
        return "cards"
    counted = all(isinstance(side["totals"], dict) and "points" in side["totals"] for side in sides)
    return "points" if counted else "totals"


class RummyPage:
    TEMPLATE = "entry/rummy.html"

    def __init__(self, match: Match, number: int | None, *, document: dict[str, Any] | None = None):
        self.match = match
        self.number = number
        self.game = match.game
        self.engine: Any = rules_match.engine(self.game)
        self.rules = self.engine.parse_rules(dict(match.rules))
        self.scoring = self.engine.Scoring(self.rules)
        self.header = match.header
        self.side_count = self.header.side_count
        # Burraco for three: who played alone is asked while solo and pair are played
        self.three = self.game == "burraco" and self.header.seats == burraco_three.SEATS
        self._solo_asked: bool | None = None
        self.no_next_deal = False  # a rummy match goes on until it is finished
        self._last_mode: str | None = None  # how the last deal was counted (_mode_of)
        if number is None:  # the next deal: the state the deals so far left says which
            self.document = None
            self.deal_number = match_state(match).deals + 1
        else:
            self.document = document if document is not None else match_document(match)
            self.deal_number = number

    # -- the deal in progress -----------------------------------------------------------------

    def _initial(self) -> st.RummyDraft:
        if self.number is not None:
            assert self.document is not None
            return st.RummyDraft.from_deal(
                self.document["deals"][self.number - 1],
                game=self.game,
                side_count=self.side_count,
            )
        draft = st.RummyDraft.new(game=self.game, side_count=self.side_count)
        if self._last_mode is None:  # one row, read once a request, only for a new deal
            last = self.match.deals.order_by("-number").values_list("data", flat=True).first()
            sides = last.get("sides", ()) if isinstance(last, dict) else ()
            self._last_mode = _mode_of(sides)
        if self._last_mode != "cards":
            # a table that counted the last deal by totals (or by its points alone) counts
            # this one so (one tap less)
            for side in draft.sides:
                side.mode = self._last_mode
                side.fix_target()
        return draft

    def initial_content(self) -> dict[str, Any]:
        return self._initial().content_json()

    def restart_content(self, content: Any, *, by: str = "") -> dict[str, Any]:
        """The deal started over from ``content`` (as stored) by ``by``: nothing entered, and
        counted as one more start, so that every phone's view of it begins afresh too (each
        keeps its side and suit, and is told who started over)."""
        fresh = self._initial()
        fresh.restarted = min(self.compose(content).restarted + 1, st.MAX_RESTARTS)
        fresh.restarted_by = by[: st.MAX_NAME]
        return fresh.content_json()

    def is_blank(self, content: Any) -> bool:
        """Nothing was entered in ``content`` (a deal in progress as stored): however its
        sides are counted, no card, number or answer, no trump."""
        draft = self.compose(content)
        return (
            draft.trump is None
            and draft.solo is None
            and all(side.untouched and side.took_pot is None for side in draft.sides)
        )

    def compose(self, content: Any, view: Any = None) -> st.RummyDraft:
        draft = st.RummyDraft.compose(content, view, game=self.game, side_count=self.side_count)
        return self._fit(draft)

    def read_posted(self, text: str) -> st.RummyDraft:
        """The draft a page posted (what its screen showed, and its own view)."""
        return self._fit(st.RummyDraft.read(text, game=self.game, side_count=self.side_count))

    # -- Burraco for three: a solo player and a pair, or each alone ---------------------------

    @property
    def solo_asked(self) -> bool:
        """Whether this deal asks who played alone (Burraco for three, while solo and pair
        are played: the phase the deals before it leave)."""
        if not self.three:
            return False
        if self._solo_asked is None:
            if self.number is None:
                state = match_state(self.match)
            else:
                state = state_after(self.match, self.number - 1)
            phase = self.engine.outlook(self.header, self.rules, state.tally).phase
            self._solo_asked = phase is burraco_three.Phase.SOLO_PAIR
        return self._solo_asked

    def live_sides(self, draft: st.RummyDraft) -> int:
        """How many sides the deal has: 2 (the solo player, the pair) when someone played
        alone or it is not said yet, else one a side of the match."""
        if self.solo_asked and draft.solo != st.NOBODY:
            return 2
        return self.side_count

    def _fit(self, draft: st.RummyDraft) -> st.RummyDraft:
        draft.side = min(draft.side, self.live_sides(draft) - 1)
        return draft

    def seating(self, draft: st.RummyDraft) -> Any:
        """Who the deal's sides are (the match's own sides, or a solo player and a pair)."""
        if self.solo_asked and isinstance(draft.solo, int):
            return burraco_three.solo_and_pair(self.header, draft.solo)
        return self.header

    def side_name(self, draft: st.RummyDraft, k: int) -> str:
        if self.solo_asked and draft.solo is None:  # who played alone is not said yet
            return _("The solo player") if k == 0 else _("The pair")
        return self.seating(draft).side_name(k)

    def deal_of(self, draft: st.RummyDraft) -> dict[str, Any]:
        """The deal as the document writes it (its ``solo`` only while it is asked; a pot the
        deal says was not taken, :meth:`pots_not_taken`, written so)."""
        deal = draft.deal_json(each_alone=self.three and not self.solo_asked)
        for k in self.pots_not_taken(draft):
            deal["sides"][k]["took_pot"] = False
        return deal

    def pots_not_taken(self, draft: st.RummyDraft) -> frozenset[int]:
        """The sides, their pot unanswered, that the deal says did not take it
        (:meth:`pot_not_taken`)."""
        live = range(self.live_sides(draft))
        return frozenset(k for k in live if self.pot_not_taken(draft, k))

    def pot_not_taken(self, draft: st.RummyDraft, k: int) -> bool:
        """Whether side ``k``'s pot, unanswered, is one the deal says it did not take: under
        Biriba's ``pot_needs_biriba`` a side without a biriba cannot have (the rules core
        refuses it taken, ``pot_without_biriba``), so it is not asked (a probe: the unanswered
        question, drawn as taken, was refused as "took its biribaki without a biriba"). One
        scoring of that side, only where the option is on."""
        side = draft.sides[k]
        if self.game != "biriba" or not getattr(self.rules, "pot_needs_biriba", False):
            return False
        if side.took_pot is not None or side.went_out or side.mode != "cards":
            return False
        try:
            rummy.score_side_alone(
                side.deal_json(game=self.game),  # its pot drawn as taken
                self.scoring,
                trump=self._trump(draft),
                one_player=self.seating(draft).is_one_player(k),
            )
        except RuleError as e:
            return e.code == "pot_without_biriba"
        return False

    def solo_choices(self, draft: st.RummyDraft) -> list[dict[str, Any]]:
        """The one-tap answers to who played alone: each player, or nobody."""
        choices = [
            {"value": str(seat), "name": name, "on": draft.solo == seat}
            for seat, name in enumerate(self.header.players)
        ]
        choices.append(
            {"value": st.NOBODY, "name": _("nobody took a pozzetto"), "on": draft.solo == st.NOBODY}
        )
        return choices

    @staticmethod
    def view_of(draft: st.RummyDraft) -> dict[str, Any]:
        return draft.view_json()

    @staticmethod
    def content_of(draft: st.RummyDraft) -> dict[str, Any]:
        return draft.content_json()

    @property
    def sets_allowed(self) -> bool:
        """Whether a meld may be a set (Biriba's ``sets`` option; Burraco always)."""
        return bool(getattr(self.rules, "sets", True))

    def apply(self, draft: st.RummyDraft, action: str, *, seen: st.RummyDraft) -> None:
        st.rummy_apply(draft, action, seen=seen, sets=self.sets_allowed)
        # a tab the screen showed may be gone since (Burraco for three: another phone named
        # who played alone, two sides where it drew three): the last side there is
        self._fit(draft)

    def pot_question(self, k: int, draft: st.RummyDraft | None = None) -> str:
        """The question a save asks of side ``k`` until it is answered (took the pot?)."""
        name = self.header.side_name(k) if draft is None else self.side_name(draft, k)
        if self.game == "biriba":
            return _("Did %(name)s take the biribaki?") % {"name": name}
        return _("Did %(name)s take the pozzetto?") % {"name": name}

    def unanswered(self, draft: st.RummyDraft) -> list[int]:
        """The sides whose pot question is still open (a side that went out took it)."""
        not_taken = self.pots_not_taken(draft)
        return [
            k
            for k, s in enumerate(draft.sides[: self.live_sides(draft)])
            if s.took_pot is None and not s.went_out and s.mode != "points" and k not in not_taken
        ]

    def solo_refusal(self, draft: st.RummyDraft) -> RuleError | None:
        """Who played alone is not said yet (asked before the pots: it answers the solo's)."""
        if not self.solo_asked or draft.solo is not None:
            return None
        return RuleError(
            "solo_unanswered",
            "{question} {answer}",
            question=_("Who played alone?"),
            answer=_("Tap the player who took the 18 cards, or nobody, then save."),
            place=Place(field="solo"),
        )

    def pot_refusal(self, draft: st.RummyDraft) -> RuleError | None:
        if (solo := self.solo_refusal(draft)) is not None:
            return solo
        open_ = self.unanswered(draft)
        if not open_:
            return None
        k = open_[0]
        return RuleError(
            "pot_unanswered",
            "{question} {answer}",
            question=self.pot_question(k, draft),
            answer=_("Answer yes or no, then save."),
            place=Place(side=k, field="took_pot"),
        )

    # -- a save from a screen other phones have tapped on since ------------------------------

    def shown_open(self, seen: st.RummyDraft, content: Any) -> bool:
        """Whether the deal in progress as stored (``content``) still shows what the screen
        ``seen`` had open: its side (melds, hand, the figures), the trump, who played alone,
        every side's pot and going out (the save asks them), and the same start. Steps on the
        other sides since are no reason to refuse its save (issue 24: saves starved)."""
        now = self.compose(content, self.view_of(seen))

        def shown(draft: st.RummyDraft) -> Any:
            side = draft.sides[min(seen.side, len(draft.sides) - 1)]
            return (
                seen.side,
                side.content_json(),
                draft.trump,
                draft.solo,
                draft.restarted,
                [(s.took_pot, s.went_out) for s in draft.sides],
            )

        return shown(now) == shown(seen)

    def steps_elsewhere(self, seen: st.RummyDraft, content: Any) -> list[str]:
        """What other phones entered on the sides the screen ``seen`` did not have open, as
        stored now (``content``): each such side's name, with the cards it gained."""
        now = self.compose(content)
        out = []
        for k, side in enumerate(now.sides):
            if k >= len(seen.sides) or side.content_json() == seen.sides[k].content_json():
                continue
            had = Counter(c for m in seen.sides[k].melds for c in m) + Counter(seen.sides[k].hand)
            has = Counter(c for m in side.melds for c in m) + Counter(side.hand)
            gained = " ".join(st.card_label(c) for c in (has - had).elements())
            name = self.side_name(now, k)
            out.append(f"{name} {gained}" if gained else name)
        return out

    def deal_for_saving(self, draft: st.RummyDraft) -> dict[str, Any]:
        """The deal as the document writes it; refused while a side's pot is unanswered (no
        silent default: a forgotten answer would book the penalty as a legal deal). A deal
        the rules refuse whatever the answer is refused for that first: it is what to mend."""
        refusal = self.pot_refusal(draft)
        if refusal is not None:
            deal = self.deal_of(draft)  # the pots unanswered as taken, as the verdict draws it
            scored = score_with(self.match, self.number, deal, document=self.document)
            raise scored.error or refusal
        return self.deal_of(draft)

    def confirmations(self, draft: st.RummyDraft) -> list[str]:
        """What a player agrees to before this draft is saved (a correction, an empty side)."""
        if self.unanswered(draft):
            return []  # the save is refused first: there is nothing to agree to yet
        lines = replacing(self.number)
        live = draft.sides[: self.live_sides(draft)]
        empty = [self.side_name(draft, k) for k, s in enumerate(live) if s.untouched]
        if empty:
            lines.append(
                _("Nothing entered for %(names)s — save anyway?") % {"names": ", ".join(empty)}
            )
        if self.trump_unsaid(draft):
            lines.append(
                _(
                    "No trump chosen: a biriba in the trump suit scores its bonus twice. "
                    "Save without a trump?"
                )
            )
        return lines

    def trump_unsaid(self, draft: st.RummyDraft) -> bool:
        """Biriba with ``trump_doubles``: no trump chosen though a side has a run biriba (it
        would count twice in the trump's suit). Asked before saving, never a silent default:
        a probe saved a clean biriba with no trump, and nothing said the doubling was lost."""
        if self.game != "biriba" or draft.trump or not getattr(self.rules, "trump_doubles", True):
            return False
        runs = {"clean_biriba", "dirty_biriba", "clean_whole_suit", "dirty_whole_suit"}
        for k, side in enumerate(draft.sides[: self.live_sides(draft)]):
            if side.mode != "cards":
                continue
            scored, _error = self.score_side(draft, k)
            if scored is not None and any(kind in runs for kind, n in scored.bonus_counts if n):
                return True
        return False

    # -- the rules' view of the draft ---------------------------------------------------------

    def _trump(self, draft: st.RummyDraft) -> Suit | None:
        return Suit(draft.trump) if draft.trump else None

    def read_meld(self, cards: list[str], trump: Suit | None) -> dict[str, Any]:
        try:
            ms = rummy.read_meld(tuple(parse_card(c) for c in cards), self.scoring, trump)
        except RuleError as e:
            return {"reading": None, "value": None, "error": rule_messages.text(e)}
        return describe_meld(ms)

    def score_side(self, draft: st.RummyDraft, k: int) -> tuple[Any, RuleError | None]:
        """The side on its own, scored by the engine (the other sides and copies unseen)."""
        side = draft.sides[k].deal_json(game=self.game)
        if self.pot_not_taken(draft, k):
            side["took_pot"] = False
        try:
            scored = rummy.score_side_alone(
                side,
                self.scoring,
                trump=self._trump(draft),
                one_player=self.seating(draft).is_one_player(k),
            )
        except RuleError as e:
            return None, e
        return scored, None

    # -- what the page shows ------------------------------------------------------------------

    def pad_variant(self, draft: st.RummyDraft) -> str | None:
        """Which pad the page draws (the cards' or the number keys': the keypad serves a side
        counted as totals and the value of a hand, card by card). The keys draw the same
        for a kind whatever the deal's state, so a tap's answer can leave them out
        (``{% keep "pad" %}``); that state (the chosen suit, "…" pressed, a set in progress)
        is drawn from #entry's attributes."""
        side = draft.sides[draft.side]
        if side.mode == "points":
            return "points"  # the number keys with a minus
        if side.mode == "totals" or side.target == "hand_points":
            return "totals"
        return "cards"

    def dealer_name(self) -> str:
        return self.header.seat_name(rummy.dealer_of(self.header, self.deal_number - 1))

    def context(self, draft: st.RummyDraft, *, error: RuleError | None) -> dict[str, Any]:
        scored = score_with(self.match, self.number, self.deal_of(draft), document=self.document)
        sides = [self.score_side(draft, k) for k in range(self.live_sides(draft))]
        pad = self.pad_variant(draft)
        previews = self.key_previews(draft) if pad == "cards" else {}
        tabs = []
        for k in range(len(sides)):
            side_score, side_error = sides[k]
            tabs.append(
                {
                    "index": k,
                    "name": self.side_name(draft, k),
                    "active": k == draft.side,
                    "score": None
                    if (side_score is None or draft.sides[k].untouched)
                    else side_score.total,
                    "bad": side_error is not None,
                    "went_out": draft.sides[k].went_out,
                    "pot_open": k in self.unanswered(draft),
                }
            )
        return {
            "game_label": self.match.get_game_display(),
            "is_biriba": self.game == "biriba",
            "is_burraco": self.game == "burraco",
            "pot_label": _("took the biribaki")
            if self.game == "biriba"
            else _("took the pozzetto"),
            # the question as asked (its question mark the language's: Greek writes ";")
            "pot_ask": _("took the biribaki?")
            if self.game == "biriba"
            else _("took the pozzetto?"),
            "dealer_name": self.dealer_name(),
            "draft": draft,
            "suits": suits(),
            "ranks": st.RANKS,
            "digits": DIGITS,
            "tabs": tabs,
            "side": self._side_context(draft, draft.side, *sides[draft.side], scored.error),
            "verdict": self._verdict(scored, draft),
            "error": error,
            "sets_allowed": self.sets_allowed,
            "set_rank": self._set_rank(draft),
            # what the keys will enter (on the keys; entry.js sets them on a pad it kept)
            "key_previews": json.dumps(previews, ensure_ascii=False, separators=(",", ":")),
            "pad_cards": pad == "cards",
            "pad_signed": pad == "points",
            # all the pad's keys draw from (kept once drawn: templatetags/keep_tags.py)
            "pad_key": f"{self.game}:{pad}",
            "trump_key": f"{self.game}:{draft.trump}",  # the trump's row draws from it
            # Burraco for three: who played alone, one tap (None: not asked in this deal)
            "solo_choices": self.solo_choices(draft) if self.solo_asked else None,
        }

    def key_previews(self, draft: st.RummyDraft) -> dict[str, str]:
        """What a pad key will enter, where that is not its own card into the meld taps go to
        (issue 24: the run shortcut surprised a new user six times in one evening): a rank key
        that fills the run in says the ranks it enters ("6–9"), one that starts a new meld
        says so; over a set, a suit key says the card it adds ("+K♥"). Keyed by the key's
        action; shown on the key (entry.js, the stylesheet)."""
        side = draft.open_side
        out: dict[str, str] = {}
        if side.mode != "cards" or side.target_position() is None:
            return out  # in hand, a new meld, the discard: each key is its own card
        before = {meld_id: list(cards) for meld_id, cards in zip(side.ids, side.melds, strict=True)}
        set_rank = self._set_rank(draft)
        for rank in st.RANKS:
            probe = draft.copy()
            try:
                st.rummy_apply(probe, f"rank:{rank}", sets=self.sets_allowed)
            except (st.UnknownAction, RuleError):
                continue
            after = probe.open_side
            grown = {
                meld_id: cards[len(before[meld_id]) :]
                for meld_id, cards in zip(after.ids, after.melds, strict=True)
                if meld_id in before and cards[: len(before[meld_id])] == before[meld_id]
            }
            if any(meld_id not in before for meld_id in after.ids):
                if not set_rank:  # over a set every other rank is a new meld: no news
                    out[f"rank:{rank}"] = pgettext(
                        "a rank key that starts a new meld: a short word", "new"
                    )
            elif (added := [c for cards in grown.values() for c in cards]) and len(added) > 1:
                out[f"rank:{rank}"] = f"{added[0][:-1]}–{added[-1][:-1]}"
        for suit in st.SUITS if set_rank else ():
            probe = draft.copy()
            st.rummy_apply(probe, f"suit:{suit}", sets=self.sets_allowed)
            if probe.by_suit:  # the card it added (the lone card's own suit only chooses it)
                out[f"suit:{suit}"] = "+" + st.card_label(probe.by_suit)
        return out

    def _set_rank(self, draft: st.RummyDraft) -> str:
        """The rank a suit key adds a card of (a set in progress), or ""."""
        side = draft.open_side
        if not self.sets_allowed or side.mode != "cards":
            return ""
        return side.set_rank() or ""

    def _verdict(self, scored: Scored, draft: st.RummyDraft) -> dict[str, Any]:
        if not scored.ok:
            assert scored.error is not None
            # who played alone is the first thing a deal of Burraco for three asks
            problem = self.solo_refusal(draft) or scored.error
            return {
                "ok": False,
                "pending": False,
                "message": rule_messages.message(problem),
                "bar": _bar(problem),
                "code": problem.code,
                "lines": self._standing_lines(),
            }
        assert scored.score is not None and scored.running is not None
        deal_score, running = scored.score, scored.running
        if "players" in deal_score:  # Burraco for three: a line a player (a pair's half)
            lines = [
                {"name": self.header.seat_name(seat), "score": points, "total": running[seat]}
                for seat, points in enumerate(deal_score["players"])
            ]
        else:
            lines = [
                {"name": self.header.side_name(k), "score": s["total"], "total": running[k]}
                for k, s in enumerate(deal_score["sides"])
            ]
        finished = ""
        if self.number is None and scored.finished and scored.winner is not None:
            finished = _("This deal ends the match. Winner: %(name)s.") % {
                "name": self.header.side_name(scored.winner)
            }
        live = draft.sides[: self.live_sides(draft)]
        empty = [self.side_name(draft, k) for k, s in enumerate(live) if s.untouched]
        # the match's own target, as the scoreboard shows it (a round by victory points has
        # none: it ends after its deals, whatever the preset's target would be)
        target = self.match.rules.get("target")
        for line in lines:
            line["to_go"] = max(0, target - line["total"]) if target else None
        pot = self.pot_refusal(draft)
        return {
            "ok": pot is None,
            # the deal adds up, but a pot question is open: a save asks it
            "pending": pot is not None,
            "message": rule_messages.message(pot) if pot is not None else "",
            "bar": _bar(pot) if pot is not None else None,
            "code": pot.code if pot is not None else "",
            "lines": lines,
            "finished": finished,
            "empty": empty,
        }

    def _standing_lines(self) -> list[dict[str, Any]]:
        """The match totals before this deal (shown while the deal does not add up), as the
        scoreboard counts them."""
        if self.number is not None:
            return []
        totals = counted_totals(self.match, None)
        return [
            {"name": self.header.side_name(k), "score": None, "total": t, "to_go": None}
            for k, t in enumerate(totals)
        ]

    def _side_context(
        self,
        draft: st.RummyDraft,
        k: int,
        score: Any,
        side_error: RuleError | None,
        deal_error: RuleError | None,
    ) -> dict[str, Any]:
        side = draft.sides[k]
        not_taken = self.pot_not_taken(draft, k)
        # Where inside this side a refusal points: the side alone's, else the whole deal's
        problem: RuleError | None = side_error
        place: Place | None = side_error.place if side_error is not None else None
        if problem is None and (inside := _inside_side(deal_error, self.deal_number, k)):
            problem, place = deal_error, inside
        out: dict[str, Any] = {
            "index": k,
            "name": self.side_name(draft, k),
            "mode": side.mode,
            "took_pot": side.took_pot,
            # the question is asked (yes / no) unless going out answered it, or the side's
            # points alone hold it
            "pot_asked": not side.went_out and side.mode != "points" and not not_taken,
            "pot_not_taken": not_taken,
            "went_out": side.went_out,
            "score": score.total if score is not None and not side.untouched else None,
            "breakdown": [] if side.untouched else self._breakdown(score),
            # a problem of the side as a whole (not of one meld, the hand or the discard)
            "problem": None,
        }
        placed = False
        if side.mode == "cards":
            trump = self._trump(draft)
            target = side.target_position()
            melds = []
            for i, (meld_id, cards) in enumerate(zip(side.ids, side.melds, strict=True)):
                reading = self.read_meld(cards, trump)
                if problem is not None and place is not None and place.meld == i + 1:
                    placed = True
                    if reading["error"] is None:
                        reading["error"] = rule_messages.text(problem)
                melds.append(
                    {
                        "id": meld_id,
                        "number": i + 1,
                        "target": target == i,
                        "chips": [chip(c, f"remove:m{meld_id}:{j}") for j, c in enumerate(cards)],
                        **reading,
                    }
                )
            out["melds"] = melds
            out["new_meld_target"] = side.target == st.NEW_MELD
            hand_error = None
            if problem is not None and place is not None and place.field == "hand":
                hand_error, placed = rule_messages.text(problem), True
            out["hand"] = {
                "target": side.target == "hand",
                "as_points": side.hand_points is not None,
                "points": side.hand_points,
                "points_target": side.target == "hand_points",
                "chips": [chip(c, f"remove:hand:{j}") for j, c in enumerate(side.hand)],
                "value": rummy.hand_points(side.hand, self.scoring) if side.hand else None,
                "error": hand_error,
            }
            discard_error = None
            if problem is not None and place is not None and place.field == "final_discard":
                discard_error, placed = rule_messages.text(problem), True
            out["discard"] = {
                # asked only of the side that went out (or that has one recorded)
                "shown": self.game == "burraco"
                and (side.went_out or bool(side.final_discard) or side.target == "discard"),
                "target": side.target == "discard",
                "chip": chip(side.final_discard, "remove:discard") if side.final_discard else None,
                "error": discard_error,
            }
            if side.target == "hand_points":
                out["target_label"] = _("the value of the cards in hand (⇅ back to cards)")
            elif side.target == "hand":
                out["target_label"] = _("cards go to: left in hand")
            elif side.target == "discard":
                out["target_label"] = _("the next card is the closing discard")
            elif target is not None:
                out["target_label"] = _("cards go to: meld %(n)s") % {"n": target + 1}
            else:
                out["target_label"] = _("cards go to: a new meld")
            rank = self._set_rank(draft) if k == draft.side else ""
            if rank and side.target != "hand_points":
                out["target_label"] += " · " + _("a suit key adds another %(rank)s") % {
                    "rank": rank
                }
            if draft.thru and k == draft.side:
                out["target_label"] += " · " + _("…: the next rank ends the run")
        elif side.mode == "points":
            # "±" pressed before the digits: the field shows the minus alone, as typed
            out["points"] = MINUS if side.minus else side.points
            out["target_label"] = _("points this deal")
        else:
            # the bonuses the rules allow in this deal (a set biriba with sets on, semipulito
            # where the rules have it, a trump biriba with a trump), and any already counted
            # (to be taken back: the rules refuse it)
            allowed = rummy.bonus_kinds(self.scoring, trump=self._trump(draft))
            kinds = [
                k for k in st.BONUS_KINDS.get(self.game, ()) if k in allowed or side.bonuses.get(k)
            ]
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
                _("melded cards (⇅ switches)")
                if side.target == "melded"
                else _("cards in hand (⇅ switches)")
            )
        if problem is not None and not placed:
            out["problem"] = (
                rule_messages.message(problem)
                if problem is deal_error
                else rule_messages.text(problem)
            )
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
            (_("points counted at the table"), score.counted),
        ]
        return [{"label": label, "value": v} for label, v in lines if v]


def _bar(problem: Any) -> dict[str, str]:
    """A refusal as the sticky bar says it, in three lines at most on a phone: the rule first,
    then where (the bar cut the rule itself at 360 px, "…or nobod…"; in Greek only the place
    showed). The whole message is below the entry (#verdict), where the bar links."""
    return {"rule": rule_messages.text(problem), "place": rule_messages.place(problem)}
