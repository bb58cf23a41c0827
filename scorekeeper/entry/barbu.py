"""The Barbu contract sheet: what it shows of the deal in progress.

Only the contracts the declarer may still name; the doubles each player may make, and for
each one the rules forbid, why (``allowed_doubles``, ``shortcut_choices``); the compulsory
doubles still owed; for the contract, the widget that fits its data (steppers with their sum
check and "rest", one tap for a seat, the finishing order, the Ravage City grid); and the
preview of the deal: raw scores, the settlement of each pair and the totals, with their sum
check. Every answer comes from the rules core (``rules.barbu``); nothing is decided here.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from scorekeeper import rule_messages
from scorekeeper.entry import drafts as st
from scorekeeper.entry.common import Scored, counted_totals, replacing, score_with, suits
from scorekeeper.inputs import parse_int
from scorekeeper.labels import contract_name
from scorekeeper.models import Match
from scorekeeper.rules import barbu, incremental
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.barbu.contracts import OPTIONAL_DATA_KEYS
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_document
from scorekeeper.standing import match_state

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
SHORTCUT_LABELS = {
    barbu.Shortcut.MAXIMUM: (
        gettext_lazy("maximum"),
        gettext_lazy("double everyone you may, redouble who doubled you"),
    ),
    barbu.Shortcut.FAMILY: (
        gettext_lazy("family"),
        gettext_lazy("double the other players, not the declarer"),
    ),
}


def last_two_labels(seats: int) -> tuple[str, str]:
    """Who took the trick before last and the last one: tricks 12 and 13 at four, 9 and 10
    at five (50 cards)."""
    last = barbu.tricks_in_deal(seats)
    if last == 13:
        return _("Trick 12 went to"), _("Trick 13 went to")
    return (
        _("Trick %(number)s went to") % {"number": last - 1},
        _("Trick %(number)s went to") % {"number": last},
    )


class BarbuPage:
    TEMPLATE = "entry/barbu.html"

    def __init__(self, match: Match, number: int | None, *, document: dict[str, Any] | None = None):
        self.match = match
        self.number = number
        if number is None:
            # the next deal: the state the deals so far left (kept on the match) says who
            # declares, what they have left and the doubles owed, without reading them
            state = match_state(match)
            self.document = None
            self.header, self.rules = state.header, state.rules
            self.index = state.deals
            self.status = incremental.standing(state).next_deal
            parsed = None
        else:
            self.document = document if document is not None else match_document(match)
            parsed = rules_match.parse_document(self.document)
            self.header, self.rules = parsed.header, parsed.rules
            self.index = number - 1
            # one walk through the deals before: this declarer's contracts left, doubles owed
            self.status = barbu.next_deal(self.header, self.rules, parsed.deals[: self.index])
        self.deal_number = self.index + 1
        # every contract named but some deals still to enter (after a swap): no next deal
        self.no_next_deal = number is None and self.status.get("number") is None
        self.names = list(self.header.players)
        # four at the table, or five in Salade: every row of seats is drawn for them
        self.seat_count = len(self.names)
        self.declarer = barbu.declarer_of(self.header, self.rules, self.index)
        self.contracts = tuple(self.status.get("contracts") or ())
        if parsed is not None:
            # correcting: what the declarer names in no other deal (King: quotas left open)
            found = barbu.contracts_for_deal(self.header, self.rules, parsed.deals, self.index)
            self.contracts = tuple(c.value for c in found)
        # correcting: each contract the declarer names in another deal, with that deal, to
        # swap the two deals' contracts in one step
        self.swaps: list[tuple[str, int]] = []
        if parsed is not None:
            # the match's own contracts (a house list holds fewer than its variant's: one of
            # those is no contract to swap with, and naming it is refused, issue 24)
            for contract in barbu.match_contracts(self.rules):
                if contract.value in self.contracts:
                    continue
                other = barbu.swap_partner(parsed, number, contract.value)
                if other is not None:
                    self.swaps.append((contract.value, other))

    # -- the deal in progress -----------------------------------------------------------------

    def _initial(self) -> st.BarbuDraft:
        if self.document is not None and self.number is not None:
            return st.BarbuDraft.from_deal(
                self.document["deals"][self.number - 1], players=self.seat_count
            )
        draft = st.BarbuDraft(players=self.seat_count)
        if len(self.contracts) == 1:
            draft.contract = self.contracts[0]
        return draft

    def initial_content(self) -> dict[str, Any]:
        return self._initial().to_json()

    def restart_content(self, content: Any, *, by: str = "") -> dict[str, Any]:
        """The deal started over (a view here holds nothing a start over leaves behind)."""
        return self.initial_content()

    def is_blank(self, content: Any) -> bool:
        """Nothing was entered in ``content`` (a deal in progress as stored)."""
        return content == self.initial_content()

    def compose(self, content: Any, view: Any = None) -> st.BarbuDraft:
        """The stored sheet with this phone's own view (where its number keys go, whether its
        doubles are open)."""
        return st.BarbuDraft.compose(
            content, view, contracts=self.contracts, players=self.seat_count
        )

    def read_posted(self, text: str) -> st.BarbuDraft:
        return st.BarbuDraft.read(text, contracts=self.contracts, players=self.seat_count)

    @staticmethod
    def view_of(draft: st.BarbuDraft) -> dict[str, Any]:
        return draft.view_json()

    @staticmethod
    def content_of(draft: st.BarbuDraft) -> dict[str, Any]:
        return draft.to_json()

    def confirmations(self, draft: st.BarbuDraft) -> list[str]:
        """What a player agrees to before this draft is saved (a correction; a Chinese Poker
        deal with no net typed, which would store everyone at 0)."""
        lines = replacing(self.number)
        if draft.contract == barbu.Contract.CHINESE_POKER.value and not any(draft.nets):
            lines.append(_("No net typed: everyone broke even — save anyway?"))
        return lines

    def _contract(self, draft: st.BarbuDraft) -> barbu.Contract | None:
        if draft.contract is None:
            return None
        try:
            return barbu.Contract(draft.contract)
        except ValueError:
            return None

    @staticmethod
    def _doubles(draft: st.BarbuDraft) -> tuple[barbu.Double, ...]:
        return tuple(
            barbu.Double(by, on, level == 2) for (by, on), level in sorted(draft.doubles.items())
        )

    @staticmethod
    def _set(draft: st.BarbuDraft, doubles: tuple[barbu.Double, ...]) -> None:
        draft.set_doubles([{"by": d.by, "on": d.on, "redoubled": d.redoubled} for d in doubles])

    def apply(self, draft: st.BarbuDraft, action: str, *, seen: st.BarbuDraft) -> None:
        verb, _sep, rest = action.partition(":")
        if verb in ("maximum", "family"):
            contract = self._contract(draft)
            seat = parse_int(rest, lo=0, hi=self.seat_count - 1)
            if contract is None or seat is None:
                raise st.UnknownAction(action)
            self._set(
                draft,
                barbu.expand_shortcut(
                    verb,
                    seat,
                    self.declarer,
                    contract,
                    self._doubles(draft),
                    rules=self.rules,
                    names=self.names,
                ),
            )
            return
        before = draft.contract
        st.barbu_apply(draft, action, contracts=self.contracts, seen=seen)
        contract = self._contract(draft)
        if draft.contract != before and contract is not None:
            # a new contract may forbid doubles made under the old one
            self._set(
                draft,
                barbu.keep_allowed_doubles(
                    self._doubles(draft),
                    declarer=self.declarer,
                    contract=contract,
                    rules=self.rules,
                ),
            )

    def is_split(self, draft: st.BarbuDraft) -> bool:
        contract = self._contract(draft)
        return contract is not None and barbu.is_split(self.rules, contract, self._doubles(draft))

    def shown_open(self, seen: st.BarbuDraft, content: Any) -> bool:
        """A Barbu sheet is one whole: the stored one must be the one the screen showed."""
        return self.content_of(self.compose(content)) == self.content_of(seen)

    def steps_elsewhere(self, seen: st.BarbuDraft, content: Any) -> list[str]:
        return []  # a sheet saved only as the screen showed it (shown_open)

    def deal_for_saving(self, draft: st.BarbuDraft) -> dict[str, Any]:
        if draft.contract is None:
            raise RuleError(
                "no_contract",
                _("{declarer} has not named a contract yet"),
                declarer=self.names[self.declarer],
            )
        return draft.deal_json(with_data=not self.is_split(draft), keys=self._data_keys(draft))

    def _data_keys(self, draft: st.BarbuDraft) -> tuple[str, ...] | None:
        """What a deal of the draft's contract records in this match (a salade counting the
        last two tricks records them), without the optional ``start_rank``."""
        contract = self._contract(draft)
        if contract is None:
            return None
        keys = barbu.data_keys(self.rules, contract)
        return tuple(k for k in keys if k not in OPTIONAL_DATA_KEYS)

    # -- what the page shows ------------------------------------------------------------------

    def context(self, draft: st.BarbuDraft, *, error: RuleError | None) -> dict[str, Any]:
        contract = self._contract(draft)
        split = self.is_split(draft)
        scored = Scored()
        if contract is not None:
            scored = score_with(
                self.match,
                self.number,
                draft.deal_json(with_data=not split, keys=self._data_keys(draft)),
                document=self.document,
            )
        declarer = self.declarer
        preview = self._preview(scored, contract) if contract is not None else None
        doubles = self._doubles_rows(draft, contract) if contract else []
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
            "swaps": [
                {
                    "code": code,
                    "label": contract_name(code),
                    "other": other,
                    "url": reverse("match_detail", args=[self.match.pk])
                    + f"?swap={self.deal_number}&with={other}#swap-box",
                }
                for code, other in self.swaps
            ],
            "contract": draft.contract,
            "contract_label": contract_name(draft.contract) if draft.contract else "",
            # the deals this declarer still declares, this one included (King: five deals,
            # more contracts to choose from); a correction says how many it may name
            "left": (
                barbu.deals_left_in_series(self.rules, self.index) + 1
                if self.number is None
                else len(self.contracts)
            ),
            "positive": bool(contract and contract.positive),
            "doubling": self.rules.doubling,
            "doubles": doubles,
            "doubles_open": draft.doubles_open,
            "doubles_made": self._doubles_made(draft),
            "owed": self._owed(draft, contract),
            "on_declarer": self._on_declarer(draft, contract) if contract else [],
            "split": split,
            "widgets": [] if (contract is None or split) else self._widgets(draft, contract),
            "seats": [{"seat": s, "name": self.names[s]} for s in range(self.seat_count)],
            # the class of a row of one button a player: four or five to a row
            "grid": "five" if self.seat_count == 5 else "four",
            "suits": suits(),
            "preview": preview,
            "standing": self._standing(preview),
            "error": error,
        }

    def _on_declarer(self, draft: st.BarbuDraft, contract: barbu.Contract) -> list[dict[str, Any]]:
        """The commonest double, in sight with the doubles folded: each other player's double
        on the declarer, one key each (tapped again: taken back), where the rules allow it;
        who still owes compulsory doubles is marked."""
        if not self.rules.doubling:
            return []
        owing = {
            e["seat"]
            for e in self.status.get("doubles_owed") or []
            if e["owed"] and self.number is None
        }
        keys = []
        choices = barbu.allowed_doubles(
            self.declarer, contract, self._doubles(draft), rules=self.rules, names=self.names
        )
        # the declarer's redouble of each player who doubled them: ×2 beside that double
        redoubles = {
            c.on: f"double:{c.on}:{self.declarer}:{1 if c.made else 2}"
            for c in choices
            if c.by == self.declarer and c.action == barbu.Action.REDOUBLE and (c.made or c.allowed)
        }
        for c in choices:
            if c.on != self.declarer or c.action == barbu.Action.REDOUBLE:
                continue
            if c.made or c.allowed:
                keys.append(
                    {
                        "seat": c.by,
                        "name": self.names[c.by],
                        "on": c.made,
                        "owes": c.by in owing,
                        "action": f"double:{c.by}:{c.on}:{0 if c.made else 1}",
                        "redouble": redoubles.get(c.by) if c.made else None,
                        "redoubled": draft.level(c.by, c.on) == 2,
                    }
                )
        return sorted(keys, key=lambda k: (k["seat"] - self.declarer) % self.seat_count)

    def _doubles_made(self, draft: st.BarbuDraft) -> list[str]:
        """The doubles made, one short line each, for the folded doubles."""
        out = []
        for (by, on), level in sorted(draft.doubles.items()):
            names = {"by": self.names[by], "on": self.names[on]}
            if level == 2:
                out.append(_("%(by)s doubled %(on)s, redoubled") % names)
            else:
                out.append(_("%(by)s doubled %(on)s") % names)
        return out

    def _standing(self, preview: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The match totals for the line that stays in sight: after this deal when it scores,
        else as they stand before it (as the scoreboard counts them: without the deals waiting
        for the other side or rejected)."""
        if preview and preview["ok"]:
            return [
                {"name": c["name"], "total": c["running"], "deal": c["total"]}
                for c in preview["columns"]
            ]
        totals = counted_totals(self.match, self.number)
        return [
            {"name": self.names[s], "total": totals[s], "deal": None}
            for s in range(self.seat_count)
        ]

    def _doubles_rows(self, draft: st.BarbuDraft, contract: barbu.Contract) -> list[dict[str, Any]]:
        if not self.rules.doubling:
            return []
        existing = self._doubles(draft)
        choices = barbu.allowed_doubles(
            self.declarer, contract, existing, rules=self.rules, names=self.names
        )
        shortcuts = barbu.shortcut_choices(
            self.declarer, contract, existing, rules=self.rules, names=self.names
        )
        rows = []
        n = self.seat_count
        order = [(self.declarer + k) % n for k in (*range(1, n), 0)]
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
                    buttons.append(
                        {
                            "label": name,
                            "on": True,
                            "redoubled": draft.level(by, c.on) == 2,
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
                    refused.append({"name": name, "reason": rule_messages.text(c.reason)})
            offered = []
            for s in shortcuts:
                if s.by != by:
                    continue
                label, hint = SHORTCUT_LABELS[s.kind]
                if s.changes:
                    offered.append({"label": label, "action": f"{s.kind}:{by}", "help": hint})
                elif s.reason is not None and (
                    by != self.declarer or s.kind is barbu.Shortcut.MAXIMUM
                ):
                    refused.append({"name": label, "reason": rule_messages.text(s.reason)})
            rows.append(
                {
                    "seat": by,
                    "name": self.names[by],
                    "verb": _("redoubles") if by == self.declarer else pgettext("verb", "doubles"),
                    "is_declarer": by == self.declarer,
                    "buttons": buttons,
                    "shortcuts": offered,
                    "refused": refused,
                }
            )
        return rows

    def _owed(self, draft: st.BarbuDraft, contract: barbu.Contract | None) -> list[dict[str, Any]]:
        """The compulsory-double status before this deal, and what this draft pays off."""
        if self.rules.compulsory_doubles is barbu.CompulsoryDoubles.OFF:
            return []
        out = []
        for entry in self.status.get("doubles_owed") or []:
            if not entry["owed"]:
                continue
            seat = entry["seat"]
            out.append(
                {
                    "name": self.names[seat],
                    "owed": entry["owed"],
                    "left": entry["deals_left"],
                    "must": entry["must_double"],
                    "doubling_now": (seat, self.declarer) in draft.doubles,
                }
            )
        return out

    def _widgets(self, draft: st.BarbuDraft, contract: barbu.Contract) -> list[dict[str, Any]]:
        widgets = []
        n = self.seat_count
        for key in barbu.data_keys(self.rules, contract):
            if key in barbu.COUNTS:
                values = draft.count(key)
                tally = barbu.count_tally(key, values, seats=n)
                typed = draft.typed.get(key, [])
                auto = st.count_auto(draft, key)
                focus = st.count_focus(draft, key)
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
                                "typed": s in typed,
                                # following from those typed: the rest of the total, or none
                                "auto": s in auto,
                                "focus": s == focus,
                            }
                            for s in range(n)
                        ],
                        "focus_name": None if focus is None else self.names[focus],
                        "numbers": range(st.counter_total(key, n) + 1),
                        "sum": tally.got,
                        "want": tally.want,
                        "ok": tally.ok,
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
                labels = last_two_labels(n)
                widgets.append(
                    {
                        "kind": "last_two",
                        "rows": [
                            {"which": i, "label": labels[i], "chosen": draft.last_two[i]}
                            for i in (0, 1)
                        ],
                    }
                )
            elif key == "net":
                widgets.append(self._net_widget(draft))
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
                        "done": len(draft.finish_order) == n,
                    }
                )
            elif key == "suits":
                tallies = barbu.suit_tallies(draft.suits)
                focus_cell = st.cell_focus(draft)
                typed_in = {k: draft.typed.get(f"suits:{k}", []) for k in st.SUITS}
                widgets.append(
                    {
                        "kind": "ravage",
                        "focus_name": None if focus_cell is None else self.names[focus_cell[0]],
                        "focus_suit": None if focus_cell is None else st.SUITS[focus_cell[1]],
                        "numbers": range(14),
                        "rows": [
                            {
                                "seat": s,
                                "name": self.names[s],
                                "cells": [
                                    {
                                        "suit": st.SUITS[k],
                                        "value": draft.suits[s][k],
                                        "typed": s in typed_in[st.SUITS[k]],
                                        "auto": st.cell_auto(draft, s, k),
                                        "focus": focus_cell == (s, k),
                                    }
                                    for k in range(4)
                                ],
                                "cards": sum(draft.suits[s]),
                                "whole": barbu.whole_tricks(draft.suits[s]),
                            }
                            for s in range(4)
                        ],
                        "columns": [{"suit": t.what, "sum": t.got, "ok": t.ok} for t in tallies],
                        "ok": all(t.ok for t in tallies),
                    }
                )
        return widgets

    def _net_widget(self, draft: st.BarbuDraft) -> dict[str, Any]:
        """Chinese Poker: each player's net result on number keys (tap the player, then the
        digits and ± for a minus); the last player's follows from the zero sum, shown."""
        values = draft.net_values()
        auto = st.net_auto(draft)
        focus = st.net_focus(draft)
        total = sum(values)
        return {
            "kind": "net",
            "rows": [
                {
                    "seat": s,
                    "name": self.names[s],
                    "text": draft.nets[s],
                    "value": values[s],
                    "typed": draft.nets[s] != "",
                    "auto": s == auto,
                    "focus": s == focus,
                }
                for s in range(self.seat_count)
            ],
            "focus_name": None if focus is None else self.names[focus],
            "sum": total,
            # every net in (typed, or the last one following) and adding up to 0
            "ok": total == 0
            and all(t not in ("", "-") or s == auto for s, t in enumerate(draft.nets)),
            "multiplier": self.rules.chinese_poker_multiplier,
            "numbers": range(10),
        }

    def _preview(self, scored: Scored, contract: barbu.Contract) -> dict[str, Any]:
        if not scored.ok:
            assert scored.error is not None
            message = rule_messages.message(scored.error)
            return {"ok": False, "message": message, "code": scored.error.code}
        assert scored.score is not None and scored.running is not None
        score, running = scored.score, scored.running
        lines = []
        for raw in score.get("settlement") or []:
            line = barbu.SettlementLine.from_json(raw)
            first, second = line.seats
            gainer = line.gainer
            lines.append(
                {
                    "a": self.names[first],
                    "b": self.names[second],
                    "factor": line.factor,
                    "winner": None if gainer is None else self.names[gainer],
                    "amount": line.gain,
                }
            )
        check = barbu.deal_sum(self.rules, contract, score)
        return {
            "ok": True,
            "split": bool(score.get("split")),
            "lines": lines,
            "sum": check.total,
            "sum_ok": check.ok,
            "sum_want": check.want,
            "warnings": [dict(w) for w in score.get("warnings") or []],
            "finished": scored.finished and self.number is None,
            "columns": [
                {
                    "name": self.names[s],
                    "raw": score["raw"][s],
                    "part": score["doubles"][s],
                    "total": score["total"][s],
                    "running": running[s],
                }
                for s in range(self.seat_count)
            ],
        }
