"""The pages of a match's history: every change, newest first, one line each, with Restore for
a deleted deal (:func:`match_history`); one change's two versions of its deal side by side
(:func:`match_change`).

Function views returning ``TemplateResponse``; the list's htmx fragment is its inline partial
``#history``, and after an htmx POST the view runs again as a GET. Who may look is
:mod:`scorekeeper.access`'s: the owner and the co-scorers, as on the scoreboard. What a line
says is worded in ``templates/history/_change_line.html``, one translatable sentence a kind
(drawn once a line, :func:`history_entries`); the points a change gave or took are put
together here, column by column (:func:`points_phrase`), with the names isolated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import names, rule_messages, services
from scorekeeper.access import Access, AccessDenied, denied_response, match_for_scorer
from scorekeeper.errors import page_not_found
from scorekeeper.history import selectors
from scorekeeper.inputs import parse_int
from scorekeeper.labels import bonus_name, contract_name
from scorekeeper.models import Game, Match, MatchChange
from scorekeeper.pages import as_get
from scorekeeper.rules import barbu
from scorekeeper.rules.errors import RuleError
from scorekeeper.scoreboard import PER_SEAT_COUNTS, SEAT_FACTS, deal_seating, last_two_names
from scorekeeper.templatetags.score_tags import points

#: Where the sentence of each kind of change is worded.
LINE_TEMPLATE = "history/_change_line.html"
#: The highest page number an address may ask for (a bound for every number a request carries).
PAGE_MAX = 10**9
DEAL_KINDS = frozenset(
    {
        MatchChange.Kind.ENTERED,
        MatchChange.Kind.CORRECTED,
        MatchChange.Kind.DELETED,
        MatchChange.Kind.RESTORED,
        MatchChange.Kind.CONFIRMED,
        MatchChange.Kind.REJECTED,
        MatchChange.Kind.SWAPPED,
    }
)


# ---------------------------------------------------------------------------------------------
# One line of the history


def _fill(template: str, **parts: Any) -> SafeString:
    """``template`` (translated, ``%(name)s`` placeholders) with its parts escaped (a part
    that is already HTML, an isolated name, is kept)."""
    return mark_safe(template % {key: conditional_escape(value) for key, value in parts.items()})


def _at(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and i < len(values) else None


def points_phrase(
    columns: Sequence[SafeString], before: list[int] | None, after: list[int] | None
) -> SafeString | None:
    """A deal's points column by column: ``Anna & Chris 120, Babis & Dora 35``; for a change,
    ``Anna & Chris 120 → 145`` where they moved. None when the change says no points. A
    column's points never break across two lines."""
    if before is None and after is None:
        return None
    parts = []
    for i, name in enumerate(columns):
        old, new = _at(before, i), _at(after, i)
        if before is not None and after is not None and old != new:
            shown = _fill(_("%(before)s → %(after)s"), before=points(old), after=points(new))
        else:
            shown = points(new if after is not None else old)
        together = format_html('<span class="nowrap">{}</span>', shown)
        parts.append(_fill(_("%(name)s %(points)s"), name=name, points=together))
    return mark_safe(", ".join(parts))


def _contracts(change: MatchChange) -> str | None:
    """A Barbu deal's contract (``No tricks → No queens`` when a correction changed it)."""
    found = [
        contract_name(deal["contract"])
        for deal in (change.before, change.after)
        if isinstance(deal, dict) and isinstance(deal.get("contract"), str)
    ]
    if not found:
        return None
    if len(found) == 2 and found[0] != found[1]:
        return f"{found[0]} → {found[1]}"
    return found[-1]


def _other_deal(detail: dict[str, Any]) -> int | None:
    """The other deal of a swap of contracts, if the change names it."""
    value = detail.get("other_deal")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class Context:
    """What every line of one match's history needs: its columns' names (a side's isolated
    player by player), whether it is Barbu, the day it is today where the site is."""

    columns: list[SafeString]
    barbu: bool
    today: date

    @classmethod
    def of(cls, match: Match) -> Context:
        players = names.names_of(match)
        return cls(
            columns=[names.isolate(name, players) for name in match.column_names],
            barbu=match.game == Game.BARBU,
            today=timezone.localdate(),
        )


def history_entry(
    change: MatchChange, context: Context, related: selectors.Related
) -> dict[str, Any]:
    """One change as its line draws it (``history/_change_line.html``)."""
    detail = change.detail if isinstance(change.detail, dict) else {}
    local = timezone.localtime(change.at)
    undo_of = detail.get("undo_of")
    undone = related.undone.get(undo_of) if isinstance(undo_of, int) else None
    winner = detail.get("winner")
    entry: dict[str, Any] = {
        "id": change.pk,
        "kind": change.kind,
        "at": change.at,
        "today": local.date() == context.today,
        "this_year": local.year == context.today.year,
        "by": names.bdi(change.by) if change.by else _("Someone"),
        "number": change.number,
        "points": points_phrase(context.columns, change.points_before, change.points_after),
        "contract": _contracts(change) if context.barbu else None,
        "undo": (undone.kind if undone is not None else "change") if "undo_of" in detail else "",
        "member": names.bdi(detail.get("member") or ""),
        "link": detail.get("link"),
        "winner": _at(context.columns, winner) if isinstance(winner, int) else None,
        "other": _other_deal(detail),
        "reason": detail.get("reason") if isinstance(detail.get("reason"), str) else "",
        "on_behalf": detail.get("on_behalf") is True,
        "has_deal": change.before is not None or change.after is not None,
        "restorable": change.kind == MatchChange.Kind.DELETED
        and change.before is not None
        and change.pk not in related.restored,
    }
    return entry


def history_entries(match: Match, changes: Sequence[MatchChange]) -> list[dict[str, Any]]:
    """The lines of ``changes`` (a page of them), in their order: one query at most besides."""
    context = Context.of(match)
    related = selectors.changes_related(match, changes)
    entries = [history_entry(change, context, related) for change in changes]
    for entry in entries:
        # the sentence, its spaces squeezed (the template words one kind a line)
        drawn = render_to_string(LINE_TEMPLATE, {"entry": entry})
        entry["line"] = mark_safe(" ".join(drawn.split()))
    return entries


# ---------------------------------------------------------------------------------------------
# The history


def _history_url(match: Match, page: int | None) -> str:
    url = reverse("match_history", args=[match.pk])
    return f"{url}?{urlencode({'page': page})}" if page and page > 1 else url


def _history_action(request: HttpRequest, access: Access) -> None:
    """The history's one button: put a deleted deal back (``action=restore&change=ID``)."""
    if request.POST.get("action") != "restore":
        messages.error(request, _("Nothing was done: the page did not say what to do."))
        return
    change = parse_int(request.POST.get("change"), lo=1, hi=selectors.CHANGE_ID_MAX)
    if change is None:
        messages.error(request, _("Nothing was restored: the page did not say which deal."))
        return
    try:
        number = services.deal_restore(match=access.match, change=change, by=access.actor)
    except RuleError as error:
        messages.error(request, rule_messages.message(error), extra_tags=error.code)
    else:
        messages.success(
            request, _("Deal %(number)s restored.") % {"number": number}, extra_tags="deal_restored"
        )


@require_http_methods(["GET", "POST"])
def match_history(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Every change of the match, newest first, 25 a page (``?page=N``); a deleted deal not
    put back since has a Restore button. The owner and the co-scorers."""
    try:
        access = match_for_scorer(request, pk)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    asked = parse_int(request.GET.get("page"), lo=1, hi=PAGE_MAX)
    if request.method == "POST":
        _history_action(request, access)
        if request.htmx:
            return match_history(as_get(request), pk)
        return redirect(_history_url(match, asked))
    page = selectors.history_page(match, asked)
    context = {
        "match": match,
        "access": access,
        "page": page,
        "entries": history_entries(match, list(page.object_list)),
        "here": _history_url(match, page.number),
    }
    template_name = "history/history.html"
    if request.htmx:
        template_name += "#history"
    return TemplateResponse(request, template_name, context)


# ---------------------------------------------------------------------------------------------
# One change: the deal before and after


@dataclass(frozen=True)
class Field:
    """One line of one version of a deal: where it goes (``order``), what it is called, how it
    is drawn (``kind``), its value, and what is compared with the other version (``same``)."""

    order: int
    label: str
    kind: str
    value: Any
    same: Any = None


def _field(order: int, label: Any, kind: str, value: Any, same: Any = None) -> Field:
    return Field(order, str(label), kind, value, value if same is None else same)


def _meld_key(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(str(c) for c in cards)) if isinstance(cards, list) else ()


def _rummy_side_fields(game: str, side: Any, points_of: Any) -> dict[str, Field]:
    out: dict[str, Field] = {}
    if not isinstance(side, dict):
        side = {}
    if isinstance(side.get("melds"), list):
        melds = [{"cards": m, "differs": False} for m in side["melds"] if isinstance(m, list)]
        same = sorted(_meld_key(m["cards"]) for m in melds)
        out["melds"] = _field(0, _("Melds"), "melds", melds, same)
    if isinstance(side.get("hand"), list):
        hand = side["hand"]
        out["hand"] = _field(1, _("Cards in hand"), "cards", hand, _meld_key(hand))
    totals = side.get("totals")
    if isinstance(totals, dict):
        out["melded"] = _field(2, _("Melded cards"), "points", totals.get("melded"))
        out["in_hand"] = _field(3, _("Left in hand"), "points", totals.get("in_hand"))
        bonuses = totals.get("bonuses") if isinstance(totals.get("bonuses"), dict) else {}
        counted = {k: n for k, n in bonuses.items() if n}
        shown = [{"name": bonus_name(k), "count": n} for k, n in sorted(counted.items())]
        out["bonuses"] = _field(4, _("Bonuses"), "bonuses", shown, sorted(counted.items()))
    pot = _("took the biribaki") if game == Game.BIRIBA else _("took the pozzetto")
    out["took_pot"] = _field(5, pot, "yes_no", bool(side.get("took_pot")))
    out["went_out"] = _field(6, _("went out"), "yes_no", bool(side.get("went_out")))
    if side.get("final_discard"):
        out["final_discard"] = _field(7, _("Closing discard"), "card", side["final_discard"])
    if points_of is not None:
        out["points"] = _field(8, _("deal total"), "points", points_of)
    return out


def _seat(players: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return players[seat]
    return "" if seat is None else str(seat)


def _per_seat(players: Sequence[str], values: Any) -> list[dict[str, Any]]:
    values = values if isinstance(values, list) else []
    return [
        {"name": name, "value": _at(values, i), "differs": False} for i, name in enumerate(players)
    ]


def _barbu_fields(
    deal: Any, players: Sequence[str], declarer: int | None, deal_points: Any
) -> dict[str, Field]:
    out: dict[str, Field] = {}
    if not isinstance(deal, dict):
        deal = {}
    if isinstance(deal.get("contract"), str):
        out["contract"] = _field(0, _("Contract"), "text", contract_name(deal["contract"]))
    stated = deal.get("declarer")
    seat = stated if isinstance(stated, int) else declarer
    if seat is not None:
        out["declarer"] = _field(1, _("Declarer"), "name", _seat(players, seat))
    for i, (key, label) in enumerate(PER_SEAT_COUNTS.items()):
        if isinstance(deal.get(key), list):
            out[key] = _field(10 + i, label, "per_seat", _per_seat(players, deal[key]), deal[key])
    if isinstance(deal.get("suits"), list):
        out["suits"] = _field(
            20, _("cards by suit"), "suits", _per_seat(players, deal["suits"]), deal["suits"]
        )
    for i, (key, label) in enumerate(SEAT_FACTS.items()):
        if key in deal:
            out[key] = _field(30 + i, label, "name", _seat(players, deal[key]))
    last_two = deal.get("last_two")
    if isinstance(last_two, list) and len(last_two) == 2:
        before, last = last_two_names(len(players))
        out["trick_12"] = _field(40, before, "name", _seat(players, last_two[0]))
        out["trick_13"] = _field(41, last, "name", _seat(players, last_two[1]))
    if isinstance(deal.get("finish_order"), list):
        order = [_seat(players, s) for s in deal["finish_order"]]
        out["finish_order"] = _field(50, _("Went out"), "names", order)
    if deal.get("start_rank") is not None:
        out["start_rank"] = _field(51, _("Starting rank"), "text", str(deal["start_rank"]))
    if "trump" in deal:
        out["trump"] = _field(60, _("Trump suit"), "suit", deal["trump"])
    doubles = [
        {
            "by": _seat(players, d.get("by")),
            "on": _seat(players, d.get("on")),
            "redoubled": bool(d.get("redoubled")),
            "differs": False,
        }
        for d in deal.get("doubles") or []
        if isinstance(d, dict)
    ]
    same = sorted((d["by"], d["on"], d["redoubled"]) for d in doubles)
    out["doubles"] = _field(70, _("Doubles"), "doubles", doubles, same)
    if deal_points is not None:
        out["points"] = _field(
            80, _("deal total"), "per_seat", _per_seat(players, deal_points), deal_points
        )
    return out


def _mark(kind: str, before: Any, after: Any) -> None:
    """Within a line that differs, the parts that differ: a meld or a double the other version
    does not have, a player whose count is not the same."""
    if kind == "melds":
        for mine, theirs in ((before, after), (after, before)):
            left = Counter(_meld_key(m["cards"]) for m in theirs)
            for meld in mine:
                key = _meld_key(meld["cards"])
                meld["differs"] = left[key] == 0
                left[key] -= 1 if left[key] else 0
    elif kind == "doubles":
        for mine, theirs in ((before, after), (after, before)):
            others = {(d["by"], d["on"], d["redoubled"]) for d in theirs}
            for double in mine:
                double["differs"] = (double["by"], double["on"], double["redoubled"]) not in others
    elif kind in ("per_seat", "suits"):
        for old, new in zip(before, after, strict=False):
            old["differs"] = new["differs"] = old["value"] != new["value"]


def compare(
    before: dict[str, Field] | None, after: dict[str, Field] | None
) -> list[dict[str, Any]]:
    """The lines of two versions (None: that version does not exist), in order; with both, a
    line is ``changed`` when its values differ (or one version lacks it)."""
    both = before is not None and after is not None
    old, new = before or {}, after or {}
    keys = sorted(set(old) | set(new), key=lambda k: (old.get(k) or new[k]).order)
    lines = []
    for key in keys:
        b, a = old.get(key), new.get(key)
        field = b or a
        changed = both and (b is None or a is None or b.same != a.same)
        if changed and b is not None and a is not None:
            _mark(field.kind, b.value, a.value)
        lines.append(
            {
                "key": key,
                "label": field.label,
                "kind": field.kind,
                "before": None if b is None else b.value,
                "after": None if a is None else a.value,
                "in_before": b is not None,
                "in_after": a is not None,
                "changed": changed,
            }
        )
    return lines


def _declarer(match: Match, number: int | None) -> int | None:
    """Who declares deal ``number`` of a Barbu match (its place in the rotation)."""
    if not number:
        return None
    header = match.header
    try:
        rules = barbu.parse_rules(dict(match.rules), len(header.players))
    except RuleError:
        return None
    return barbu.declarer_of(header, rules, number - 1)


def change_versions(match: Match, change: MatchChange) -> list[dict[str, Any]]:
    """The deal of ``change`` before and after, as sections of lines (for rummy, the deal's
    own lines, then one section a side; for Barbu one section)."""
    has_before, has_after = change.before is not None, change.after is not None
    if not has_before and not has_after:
        return []
    players = [player.name for player in match.seated_players]
    if match.game == Game.BARBU:
        declarer = _declarer(match, change.number)

        def fields(deal: Any, deal_points: Any) -> dict[str, Field]:
            return _barbu_fields(deal, players, declarer, deal_points)

        lines = compare(
            fields(change.before, change.points_before) if has_before else None,
            fields(change.after, change.points_after) if has_after else None,
        )
        return [{"title": None, "index": None, "lines": lines}]

    def deal_fields(deal: Any) -> dict[str, Field]:
        out: dict[str, Field] = {}
        if isinstance(deal, dict) and "dealer" in deal:
            out["dealer"] = _field(0, _("Dealer"), "name", _seat(players, deal["dealer"]))
        if isinstance(deal, dict) and "trump" in deal:
            out["trump"] = _field(1, _("Trump"), "suit", deal["trump"])
        if isinstance(deal, dict) and "solo" in deal:  # Burraco for three
            alone = _seat(players, deal["solo"]) or _("nobody took a pozzetto")
            out["solo"] = _field(2, _("Played alone"), "name", alone)
        return out

    def side_of(deal: Any, k: int) -> Any:
        sides = deal.get("sides") if isinstance(deal, dict) else None
        return _at(sides, k)

    sections = []
    top = compare(
        deal_fields(change.before) if has_before else None,
        deal_fields(change.after) if has_after else None,
    )
    if top:
        sections.append({"title": None, "index": None, "lines": top})
    # Burraco for three: a deal's sides may be a solo player and a pair (named as the deal
    # now has them); the points are each player's, a side's those of its first player
    seating = deal_seating(match.header, change.after if has_after else change.before)
    count = max(len(side_list(change.before)), len(side_list(change.after)))
    titles = list(match.column_names)
    if seating is not None:
        titles[:2] = [seating.side_name(0), seating.side_name(1)]
    for k, name in enumerate(titles if seating is None else titles[: max(count, 2)]):
        lines = compare(
            _rummy_side_fields(
                match.game,
                side_of(change.before, k),
                side_points(match, change.before, change.points_before, k),
            )
            if has_before
            else None,
            _rummy_side_fields(
                match.game,
                side_of(change.after, k),
                side_points(match, change.after, change.points_after, k),
            )
            if has_after
            else None,
        )
        sections.append({"title": name, "index": k, "lines": lines})
    return sections


def side_list(deal: Any) -> list[Any]:
    sides = deal.get("sides") if isinstance(deal, dict) else None
    return sides if isinstance(sides, list) else []


def side_points(match: Match, deal: Any, points: Any, k: int) -> Any:
    """Side ``k``'s points in a version of a change's deal (``points``: the columns'): the
    column's, or in Burraco for three the first player's of that side as the version seats it."""
    seating = deal_seating(match.header, deal) if isinstance(deal, dict) else None
    if seating is not None and k < 2:
        return _at(points, seating.side_seats(k)[0])
    return _at(points, k)


@require_GET
def match_change(request: HttpRequest, pk: int, change: int) -> HttpResponseBase:
    """One change of the match: its line, and its deal before and after side by side (for a
    deal entered only after, for a deletion only before), the lines that differ marked. The
    owner and the co-scorers; a change of another match, or none: the 404 page."""
    try:
        access = match_for_scorer(request, pk)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    found = selectors.change_get(match, change)
    if found is None:
        return page_not_found(request)
    entry = history_entries(match, [found])[0]
    context = {
        "match": match,
        "access": access,
        "change": found,
        "entry": entry,
        "sections": change_versions(match, found),
        "has_before": found.before is not None,
        "has_after": found.after is not None,
        "back": reverse("match_history", args=[match.pk]),
    }
    return TemplateResponse(request, "history/change.html", context)
