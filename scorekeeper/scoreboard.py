"""What the scoreboard shows, read from the rules core's result: nothing here scores.

:func:`scoreboard` turns the scored match (``selectors.match_scored``) into plain values for
``match_detail.html``: the columns (sides or players) with their totals and progress, one row
per deal with its breakdown, and what comes next.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import format_html_join
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper import labels, rule_messages
from scorekeeper.confirmation.selectors import (
    counted_result,
    review_right,
    uncounted,
    waiting_for,
)
from scorekeeper.forms import OPTIONS, as_choice
from scorekeeper.history.record import Actor, deal_points
from scorekeeper.labels import bonus_name, contract_name, meld_kind, purity, unit_name
from scorekeeper.models import Deal, Game, Match, column_names
from scorekeeper.names import bdi
from scorekeeper.rules import burraco, burraco_three, incremental
from scorekeeper.rules.barbu import DOCUMENT_PLAYER_COUNTS, SettlementLine, tricks_in_deal
from scorekeeper.rules.base import MatchHeader, MatchResult
from scorekeeper.rules.errors import Notice, Place, RuleError
from scorekeeper.rules.rummy import dealer_of, pot_taken
from scorekeeper.selectors import match_scored
from scorekeeper.services import deal_fingerprint, deal_scores_keep
from scorekeeper.standing import match_state, state_after
from scorekeeper.templatetags.score_tags import points as number

# Contract data that counts something per seat, and what it counts.
PER_SEAT_COUNTS: dict[str, Promise] = {
    "tricks": _("tricks"),
    "hearts": pgettext_lazy("the heart cards each player took", "hearts"),
    "queens": _("queens"),
    "boys": _("boys"),
    "net": _("net results"),  # Chinese Poker: each seat's net, before the multiplier
}
SEAT_FACTS: dict[str, Promise] = {
    "ace_of_hearts": _("Ace of hearts"),
    "king_of_hearts": _("King of hearts"),
    "last_trick": _("Last trick"),
}

# The parts of a rummy side's score, in the order a score pad adds them up.
RUMMY_PARTS: tuple[tuple[str, Promise], ...] = (
    ("melded", _("cards melded")),
    ("bonuses", _("meld bonuses")),
    ("going_out", _("going out")),
    ("in_hand", _("cards left in hand")),
    ("no_pot", _("pot never taken")),
    ("counted", _("points counted at the table")),
)
#: The pot by its game's name, where its game is known.
NO_POT: dict[str, Promise] = {
    "biriba": _("biribaki never taken"),
    "burraco": _("pozzetto never taken"),
}


def _progress(total: int, target: int | None) -> int | None:
    if not target:
        return None
    return max(0, min(100, round(100 * total / target)))


def scoreboard(
    match: Match,
    header: MatchHeader,
    result: MatchResult,
    exported: dict[str, Any],
    *,
    viewer: Actor | None = None,
    is_owner: bool = False,
    first: int = 1,
    played: int | None = None,
) -> dict[str, Any]:
    """``viewer``: who looks (an owner or a co-scorer), for the deals they may accept or
    reject; None for a watcher. ``result`` and ``exported`` may hold only some of the deals
    (their scores, running totals, notices), from deal ``first`` on, of the ``played`` deals
    of the match: the totals, the end and the next deal are the whole match's."""
    skip = uncounted(match)
    would_finish = result.finished and bool(skip)
    # what each deal not counted yet would bring, for its line above the deals
    waiting_points = {number: deal_points(result, number) for number in skip}
    result = counted_result(result, skip)
    barbu = header.game == Game.BARBU
    players = list(header.players)
    names = column_names(header)
    target = None if barbu else match.rules.get("target")
    totals = list(result.totals)
    best = max(totals) if totals else 0
    played = len(result.deal_scores) if played is None else played
    columns = [
        {
            "index": i,
            "name": name,
            "total": total,
            "progress": _progress(total, target),
            # how far from the target (0: reached), beside each total; None without a target
            "to_go": max(0, target - total) if target else None,
            "leading": played > 0 and total == best and totals.count(best) == 1,
            "winner": result.finished and result.winner == i,
        }
        for i, (name, total) in enumerate(zip(names, totals, strict=True))
    ]

    # each notice with its stable code (the page marks it data-message="CODE")
    notices_by_deal: dict[int | None, list[dict[str, str]]] = {}
    for notice in result.notices:
        notices_by_deal.setdefault(notice.place.deal, []).append(
            {"code": notice.code, "message": rule_messages.message(notice)}
        )

    rows = []
    links = row_links(match.pk)
    for i, (deal, score, running) in enumerate(
        zip(exported["deals"], result.deal_scores, result.running, strict=True)
    ):
        number = first + i
        row: dict[str, Any] = {
            "number": number,
            "notices": notices_by_deal.get(number, []),
            # which breakdown the row's deal has (the page loads it when the row is opened, and
            # a redraw keeps one loaded while the deal, its score and the names stay the same)
            "key": deal_fingerprint({"deal": deal, "score": score, "names": players}),
            "links": links(number),
        }
        if barbu:
            row.update(_barbu_row(deal, score, players))
        else:
            row.update(_rummy_row(deal, score, header, names, number - 1))
        row["cells"] = [
            {"points": points, "running": run}
            for points, run in zip(row.pop("points"), running, strict=True)
        ]
        rows.append(row)

    board: dict[str, Any] = {
        "barbu": barbu,
        "columns": columns,
        "cols": len(columns),
        "rows": rows,
        # every deal stored, a deal waiting for the other side (or rejected) too: the next
        # deal's number, the last deal's Delete, "Deals 1–10 of N"
        "played": played,
        # the deals counted in the totals (data-deal-count): those waiting or rejected left out
        "counted": played - len(skip),
        "target": target,
        "finished": result.finished,
        "winner": None if result.winner is None else names[result.winner],
        # a tournament round (Burraco's match_deals): each side's victory points once it ends
        "victory_points": _victory_points(result, names),
        "notices": notices_by_deal.get(None, []),
        "next": _next(result.next_deal, header, barbu, played),
        "rules": rules_summary(header.game, match.rules, seats=header.seats),
        "confirmation": match.confirmation,
        "pending": _pending(match, header, viewer, is_owner, waiting_points),
        # every deal is in, but the last ones wait: once accepted, the match is over
        "would_finish": would_finish,
    }
    for row in rows:
        row["pending"] = row["number"] in skip
    return board


#: A deal number no match reaches, replaced in a link reversed once by each row's own.
_ANY_DEAL = 987654321


def row_links(pk: int) -> Any:
    """A function of a deal's number: the links and the words of its row on the scoreboard,
    each link reversed and each word translated once for all the rows (a row drawn with its
    own ``{% url %}`` and ``{% blocktranslate %}`` cost a tenth of the page)."""
    breakdown = reverse("deal_breakdown", args=(pk, _ANY_DEAL))
    correct = reverse("deal_edit", args=(pk, _ANY_DEAL))
    words = {
        "breakdown_label": gettext("The breakdown of deal %(n)s"),
        "correct_label": gettext("Correct deal %(n)s"),
        "delete_label": gettext("Delete deal %(n)s…"),
    }
    any_deal = str(_ANY_DEAL)

    def of(number: int) -> dict[str, str]:
        n = str(number)
        out = {key: word % {"n": n} for key, word in words.items()}
        out["breakdown"] = breakdown.replace(any_deal, n)
        out["correct"] = correct.replace(any_deal, n)
        return out

    return of


def _pending(
    match: Match,
    header: Any,
    viewer: Actor | None,
    is_owner: bool,
    points: dict[int, list[int]],
) -> list[dict[str, Any]]:
    """The deals waiting for the other side or rejected by it (``points``: what each would
    bring per column), oldest first, with what the viewer may do about each."""
    if not points:
        return []
    names = column_names(header)
    out = []
    for deal in match.deals.all():
        if deal.number not in points:
            continue
        right = review_right(header, deal, viewer, is_owner=is_owner) if viewer else None
        out.append(
            {
                "number": deal.number,
                "status": deal.status,
                "saved_by": deal.saved_by,
                "waiting_for": format_html_join(
                    ", ", "{}", ((bdi(name),) for name in waiting_for(header, deal))
                ),
                "rejected_by": deal.rejected_by,
                "reason": deal.reason,
                "base": deal_fingerprint(deal.data),
                "right": right.value if right else "",
                "points": [
                    {"name": name, "points": p}
                    for name, p in zip(names, points[deal.number], strict=True)
                ],
            }
        )
    return out


def rules_summary(
    game: str, rules: dict[str, Any], *, seats: int | None = None
) -> list[dict[str, str]]:
    """The match's house rules as the new-match page words them (for a table of ``seats``)."""
    options: dict[str, Any] = {}
    for option in OPTIONS.get(game, ()):
        if seats is None or option.seats is None or seats in option.seats:
            options.setdefault(option.key, option)
    out = []
    for key, value in rules.items():
        option = options.get(key)
        choices = dict(option.choices) if option else {}
        if game == Game.BURRACO and key in BURRACO_HOUSE_SHOWN:
            shown = BURRACO_HOUSE_SHOWN[key](value, rules)
            if not shown:
                continue  # no value that differs from the standard one and counts
        elif key in BARBU_HOUSE_SHOWN and value is not None:
            shown = BARBU_HOUSE_SHOWN[key](value)
        elif as_choice(value) in choices:
            shown = str(choices[as_choice(value)])
        elif (key, as_choice(value)) in labels.OPTION_VALUES:
            shown = str(labels.OPTION_VALUES[key, as_choice(value)])
        elif value is None:
            shown = "—"
        elif isinstance(value, list):
            shown = " / ".join(str(v) for v in value)
        else:
            shown = str(value).replace("_", " ")
        label = option.label if option else labels.OPTIONS.get(key, key.replace("_", " "))
        label = str(label)
        out.append({"label": label, "value": shown})
    return out


def _house_contracts(value: Any) -> str:
    """Barbu's ``contracts``: the contracts played, by name."""
    return " · ".join(contract_name(str(c)) for c in value) if isinstance(value, list) else ""


def _house_values(value: Any) -> str:
    """Barbu's ``contract_values``: ``No tricks: trick −10; Domino: payouts 120 / 60 / 20 / 0``."""
    if not isinstance(value, dict):
        return ""
    parts = []
    for contract, units in value.items():
        if not isinstance(units, dict):
            continue
        shown = ", ".join(
            f"{unit_name(unit)} "
            + (" / ".join(number(v) for v in v_) if isinstance(v_, list) else number(v_))
            for unit, v_ in units.items()
        )
        parts.append(f"{contract_name(contract)}: {shown}")
    return "; ".join(parts)


#: Barbu's house values, worded on the scoreboard as a card player reads them.
BARBU_HOUSE_SHOWN = {"contracts": _house_contracts, "contract_values": _house_values}


def _burraco_cards(value: Any, rules: dict[str, Any]) -> str:
    """Burraco's ``card_values`` (stored whole): the ranks the house values otherwise, ``JK 50 · 2
    25``."""
    try:
        changed = burraco.parse_card_values(value, "card_values")
    except RuleError:
        return ""
    return " · ".join(f"{code} {number(v)}" for code, v in changed)


def _burraco_bonuses(value: Any, rules: dict[str, Any]) -> str:
    """Burraco's ``burraco_bonuses`` (stored whole): those the house values otherwise, the
    semipulito's only where it is played (``burraco pulito 300``)."""
    try:
        changed = burraco.parse_bonuses(value, "burraco_bonuses")
    except RuleError:
        return ""
    return " · ".join(
        f"{bonus_name(kind)} {number(v)}"
        for kind, v in changed
        if kind != "semi_clean_burraco" or rules.get("semipulito")
    )


#: Burraco's house values: only what differs from the standard values.
BURRACO_HOUSE_SHOWN = {"card_values": _burraco_cards, "burraco_bonuses": _burraco_bonuses}


def _victory_points(result: Any, names: list[str]) -> list[dict[str, Any]] | None:
    """Each side's name and victory points, when the match is finished and has them."""
    points = result.export.get("victory_points") if result.finished else None
    if not points:
        return None
    return [{"name": n, "points": p} for n, p in zip(names, points, strict=True)]


def _next(next_deal: dict[str, Any], header: Any, barbu: bool, played: int) -> dict[str, Any]:
    """Who deals (or declares) next and, in Barbu, what they may name and who owes doubles."""
    number = next_deal.get("number", played + 1)
    of = next_deal.get("of")
    if of is None and not barbu and next_deal.get("deals_left") is not None:
        of = number + next_deal["deals_left"] - 1  # a match of a set number of deals
    out: dict[str, Any] = {"number": number, "of": of}
    # Barbu: the deals whose contract data is still to enter (after a swap of contracts); with
    # every deal in, there is no next deal ("number" None) until they are entered
    out["to_enter"] = list(next_deal.get("to_enter", []))
    if barbu:
        declarer = next_deal.get("declarer")
        out["declarer"] = None if declarer is None else header.seat_name(declarer)
        out["contracts"] = [contract_name(c) for c in next_deal.get("contracts", [])]
        # how many deals they still declare: in King 5 out of 7 contracts they may name
        out["deals_left"] = next_deal.get("deals_left", len(out["contracts"]))
        out["owes"] = [
            {
                "name": header.seat_name(o["seat"]),
                "owed": o["owed"],
                "deals_left": o["deals_left"],
                "must": o.get("must_double", False),
            }
            for o in next_deal.get("doubles_owed", [])
            if o.get("owed")
        ]
    else:
        dealer = next_deal.get("dealer")
        out["dealer"] = None if dealer is None else header.seat_name(dealer)
    return out


def last_two_names(seats: int) -> tuple[str, str]:
    """The trick before last and the last: 12 and 13 at four, 9 and 10 at five (50 cards)."""
    last = tricks_in_deal(seats) if seats in DOCUMENT_PLAYER_COUNTS else 13
    if last == 13:
        return str(_("Trick 12")), str(_("Trick 13"))
    return (
        str(_("Trick %(number)s") % {"number": last - 1}),
        str(_("Trick %(number)s") % {"number": last}),
    )


def _seat_name(players: list[str], seat: Any) -> str:
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else str(seat)


def _barbu_row(deal: dict[str, Any], score: dict[str, Any], players: list[str]) -> dict[str, Any]:
    declarer = score.get("declarer")
    table = []
    for key, what in PER_SEAT_COUNTS.items():
        if isinstance(deal.get(key), list):
            kind = "signed" if key == "net" else "count"
            table.append({"label": what, "values": deal[key], "kind": kind})
    if isinstance(deal.get("suits"), list):
        table.append({"label": _("cards by suit"), "values": deal["suits"], "kind": "suits"})
    table += [
        {"label": _("raw"), "values": score["raw"], "kind": "points"},
        {
            "label": pgettext_lazy(
                "the points the doubles moved, a line of a deal's breakdown", "doubles"
            ),
            "values": score["doubles"],
            "kind": "signed",
        },
        {"label": _("total"), "values": score["total"], "kind": "sum"},
    ]
    # each fact names one player or more (Domino: who went out, in order), each drawn isolated
    facts = [
        {"label": label, "names": [_seat_name(players, deal[key])]}
        for key, label in SEAT_FACTS.items()
        if key in deal
    ]
    if isinstance(deal.get("last_two"), list) and len(deal["last_two"]) == 2:
        before, last = last_two_names(len(players))
        facts.append({"label": before, "names": [_seat_name(players, deal["last_two"][0])]})
        facts.append({"label": last, "names": [_seat_name(players, deal["last_two"][1])]})
    if isinstance(deal.get("finish_order"), list):
        facts.append(
            {
                "label": _("Went out"),
                "names": [_seat_name(players, s) for s in deal["finish_order"]],
            }
        )
    doubles = [
        {
            "by": _seat_name(players, d["by"]),
            "on": _seat_name(players, d["on"]),
            "redoubled": bool(d.get("redoubled")),
        }
        for d in deal.get("doubles", [])
    ]
    settlement = [
        _settlement_line(SettlementLine.from_json(raw), players)
        for raw in score.get("settlement", [])
    ]
    return {
        "points": score["total"],
        "title": contract_name(score.get("contract", deal.get("contract", ""))),
        "who": _seat_name(players, declarer),
        "trump": deal.get("trump"),
        "split": bool(score.get("split")),
        # its contract named, what was taken still to enter (after a swap of contracts)
        "to_enter": bool(score.get("to_enter")),
        "table": table,
        "facts": facts,
        "doubles": doubles,
        "settlement": settlement,
        "players": players,
    }


def _settlement_line(line: SettlementLine, players: list[str]) -> dict[str, Any]:
    """One business settled, as the breakdown shows it: who gains on the pair and how much
    (the rules' :attr:`SettlementLine.gainer`: nobody, "", when they are even)."""
    return {
        "by": _seat_name(players, line.by),
        "on": _seat_name(players, line.on),
        "factor": line.factor,
        "amount": line.amount,
        "winner": "" if line.gainer is None else _seat_name(players, line.gainer),
        "gain": line.gain,
    }


def _meld(meld: dict[str, Any]) -> dict[str, Any]:
    reading = [meld_kind(meld.get("kind", ""))]
    if meld.get("purity"):
        reading.append(purity(meld["purity"]))
    return {
        "cards": meld.get("cards", []),
        "reading": " · ".join(reading),
        "wild": meld.get("wild"),
        "stands_for": meld.get("stands_for"),
        "points": meld.get("points"),
        "bonus": bonus_name(meld["bonus"]) if meld.get("bonus") else None,
        "bonus_points": meld.get("bonus_points"),
    }


def _rummy_row(
    deal: dict[str, Any], score: dict[str, Any], header: Any, names: list[str], index: int
) -> dict[str, Any]:
    seating = deal_seating(header, score)
    names = [seating.side_name(k) for k in range(len(score["sides"]))] if seating else names
    players = score.get("players")  # Burraco for three: each seat's points of the deal
    sides = []
    for side, (name, side_score, side_deal) in enumerate(
        zip(names, score["sides"], deal.get("sides", []), strict=True)
    ):
        parts = [
            {
                "label": NO_POT.get(header.game, label) if key == "no_pot" else label,
                "points": side_score[key],
            }
            for key, label in RUMMY_PARTS
            if side_score.get(key)
        ]
        sides.append(
            {
                "side": side,
                "name": name,
                "total": side_score["total"],
                "as_totals": side_score.get("form") == "totals",
                "melds": [_meld(m) for m in side_score.get("melds", [])],
                "bonus_counts": [
                    {"name": bonus_name(code), "count": n}
                    for code, n in side_score.get("bonus_counts", {}).items()
                ],
                "parts": parts,
                "hand": side_deal.get("hand", []),
                "took_pot": pot_taken(side_deal),  # None: not said
                "went_out": bool(side_deal.get("went_out")),
                "final_discard": side_deal.get("final_discard"),
                # the pair of Burraco for three: what each of its players scores (a half)
                "share": players[seating.side_seats(side)[0]]
                if seating and players and len(seating.side_seats(side)) > 1
                else None,
            }
        )
    solo = score.get("solo")
    return {
        "points": players if players else [s["total"] for s in score["sides"]],
        # Burraco for three: who played alone against the pair (None: each alone)
        "solo": header.seat_name(solo) if isinstance(solo, int) else None,
        "who": header.seat_name(dealer_of(header, index)),
        "trump": deal.get("trump"),
        "sides": sides,
    }


def deal_seating(header: MatchHeader, score: dict[str, Any]) -> MatchHeader | None:
    """Who the sides of a deal of Burraco for three are, from its score (or the deal: both
    say ``solo``): the solo player (side 0) and the pair (side 1); None when the deal's sides
    are the match's own."""
    solo = score.get("solo")
    if not isinstance(solo, int) or not 0 <= solo < header.seats:
        return None
    return burraco_three.solo_and_pair(header, solo)


# --- the board of a match: whole, or a window of its deals --------------------------------------


def board_whole(match: Match, *, viewer: Actor | None = None, is_owner: bool = False) -> dict:
    """Every deal scored again (a match under confirmation by the other side, whose totals
    leave out the deals not accepted yet): the scoreboard of the whole match."""
    prefetch_related_objects([match], Prefetch("deals", queryset=Deal.objects.order_by("number")))
    parsed, result, exported = match_scored(match)
    return scoreboard(match, parsed.header, result, exported, viewer=viewer, is_owner=is_owner)


def deals_shown(match: Match, first: int, last: int) -> list[Deal]:
    """Deals ``first`` .. ``last`` (counted from 1), with their kept scores."""
    return list(
        Deal.objects.filter(match=match, number__range=(first, last))
        .order_by("number")
        .only("number", "data", "score", "running")
    )


def board_window(
    match: Match,
    first: int,
    last: int,
    *,
    viewer: Actor | None = None,
    is_owner: bool = False,
    shown: list[Deal] | None = None,
) -> dict[str, Any]:
    """The totals, the end and the next deal from the scoring state kept on the match, deals
    ``first`` .. ``last`` (``shown``, when read already) from their kept scores: the same
    cost at any length."""
    state = match_state(match)
    if shown is None:
        shown = deals_shown(match, first, last)
    if any(deal.score is None or deal.running is None for deal in shown):
        deal_scores_keep(match=match)  # stored before scores were kept: once
        shown = deals_shown(match, first, last)
    now = incremental.standing(state)
    result = MatchResult(
        deal_scores=[deal.score for deal in shown],
        totals=list(now.totals),
        finished=now.finished,
        winner=now.winner,
        notices=[notice for deal in shown for notice in _notices(match, deal)],
        running=[deal.running for deal in shown],
        next_deal=now.next_deal,
        export=dict(now.export),
    )
    exported = {"deals": [{**deal.data, "score": deal.score} for deal in shown]}
    return scoreboard(
        match,
        state.header,
        result,
        exported,
        viewer=viewer,
        is_owner=is_owner,
        first=first,
        played=state.deals,
    )


def _notices(match: Match, deal: Deal) -> list[Notice]:
    """The notices of a deal whose kept score has warnings (Barbu's compulsory doubles under
    ``warn``): found again by scoring that deal alone from the state kept on the one before,
    so that they speak the page's language and name the players as they are called now (the
    kept score holds them in English, as the document writes them)."""
    warnings = deal.score.get("warnings") or []
    if not warnings:
        return []
    try:
        return list(incremental.score_next(state_after(match, deal.number - 1), deal.data).notices)
    except RuleError:  # the stored match no longer passes the rules: the words kept
        return [
            Notice(
                code=w.get("code", ""), template=w.get("message", ""), place=Place(deal=deal.number)
            )
            for w in warnings
        ]
