"""The deal-entry page: one view for the next deal or the correction of a deal, plain and htmx.

The deal in progress is the match's, shared by every phone (:mod:`.services`). A GET draws it;
a POST is one key: it is applied to the draft as stored now, through what the phone's screen
showed (the posted ``draft``: its own view, and what a toggle or a card tapped away meant),
then the page is drawn again from the database (the view restart). With htmx only the
``#entry`` partial comes back (swapped in place by the morph extension), without JavaScript
the whole page does.

What a phone may meet, and what it is shown:

- another phone changed the deal meanwhile: its tap is applied to the deal as it is now, and
  it sees the deal as it is now; a save from a screen another phone has overtaken is refused
  once, with the deal drawn afresh;
- the deal it was entering was saved meanwhile (by another phone, or by itself a moment ago:
  a double tap, a resend): it is shown that deal and who saved it, and if its screen showed
  something else, it may take what it showed as the correction of that deal; nothing is ever
  moved on to the next deal;
- it was logged out, or removed from the match: the page says so in place, with a way to log
  in and come back to the same deal in progress (kept in the database).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import rule_messages
from scorekeeper.access import Access, AccessDenied, denied_response, match_for_scorer
from scorekeeper.entry import drafts as st
from scorekeeper.entry.barbu import BarbuPage
from scorekeeper.entry.common import score_with
from scorekeeper.entry.forms import EntryForm
from scorekeeper.entry.rummy import RummyPage
from scorekeeper.entry.selectors import draft_content, draft_peek
from scorekeeper.entry.services import (
    DraftGone,
    deal_save,
    draft_offer,
    draft_open,
    draft_rebase,
    draft_reset,
    draft_tap,
)
from scorekeeper.inputs import parse_int
from scorekeeper.live import live_entry
from scorekeeper.models import Deal, DealDraft, Match
from scorekeeper.pages import page_redirect
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_document
from scorekeeper.services import deal_fingerprint

Page = RummyPage | BarbuPage

#: The keys that are no tap on the deal: a redraw (the live check's ""), a save, a start
#: over, back from a question, the offer itself.
NOT_A_TAP = frozenset({"", "save", "edit", "offer", "reset", "reset:yes"})

#: Where a phone's own view of a deal in progress waits for the next reload.
VIEW_KEY = "entry-view:{pk}:{kind}:{number}"
#: The most deal entries a phone's session remembers its own view of (where its taps go):
#: one left unsaved (a correction opened and abandoned) is forgotten once newer ones pile up.
VIEWS_KEPT = 8


def _view_keep(session: Any, key: str, view: dict[str, Any]) -> None:
    """Remember this phone's view of one deal entry in its session, the newest last, forgetting
    the oldest beyond :data:`VIEWS_KEPT` (a session read on every request stays small)."""
    kept = [k for k in session.keys() if k.startswith("entry-view:") and k != key]
    for old in kept[: max(0, len(kept) - VIEWS_KEPT + 1)]:
        del session[old]
    session.pop(key, None)
    session[key] = view


def _page(match: Match, number: int | None, *, document: dict[str, Any] | None = None) -> Page:
    """The pad of the next deal (``number`` None: drawn from the scoring state the deals so
    far left, without reading them) or of the correction of deal ``number`` (from the match
    ``document``, built here when not given)."""
    if match.game == "barbu":
        return BarbuPage(match, number, document=document)
    return RummyPage(match, number, document=document)


def _scoreboard_url(match: Match) -> str:
    return reverse("match_detail", args=[match.pk])


def _entry_url(match: Match, number: int | None) -> str:
    if number is None:
        return reverse("deal_new", args=[match.pk])
    return reverse("deal_edit", args=[match.pk, number])


def _deal_gone(request: HttpRequest, match: Match, number: int) -> HttpResponse:
    messages.error(
        request,
        _("Deal %(n)s is no longer there (it was deleted): nothing was changed.") % {"n": number},
        extra_tags="deal_gone",
    )
    return page_redirect(request, _scoreboard_url(match))


def _version(draft: DealDraft) -> str:
    """What the page carries of the draft it was drawn from: which one, and its version."""
    return f"{draft.pk or 0}.{draft.version}"


def _drawn_from(form: EntryForm) -> tuple[int | None, int | None]:
    """The draft (its id and version) the posted page was drawn from, as far as it says."""
    raw = form._field("version") or ""
    pk, _dot, version = raw.partition(".")
    return parse_int(pk, lo=1, hi=10**15), parse_int(version, lo=0, hi=10**15)


def _denied(request: HttpRequest, match_pk: int, number: int | None, denied: AccessDenied):
    """No longer allowed to enter here: a tap says so in place of the pad (nothing entered
    before is lost: the deal in progress is the match's); a page load gets the usual answer."""
    if request.method == "POST" and request.htmx and denied.reason in ("login", "removed"):
        url = (
            reverse("deal_new", args=[match_pk])
            if number is None
            else reverse("deal_edit", args=[match_pk, number])
        )
        response = TemplateResponse(
            request,
            "entry/denied.html",
            {"reason": denied.reason, "login_url": f"{reverse('login')}?next={url}"},
            status=403,
        )
        return response
    return denied_response(request, denied)


def _same_deal(match: Match, number: int, deal: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Whether ``deal`` is what is stored as deal ``number`` (both as the rules write them)."""
    try:
        parsed = rules_match.parse_document(match_document(match, replace=(number, deal)))
    except RuleError:
        return False
    return parsed.engine.deal_json(parsed.deals[number - 1]) == stored


def _stored_meanwhile(
    request: HttpRequest,
    access: Access,
    number: int,
    *,
    editing: bool,
    posted: str | None,
    tapped: str = "",
) -> HttpResponse:
    """The deal this phone was entering (or correcting) was saved meanwhile: show it, who
    saved it, and offer what this phone's screen showed as the correction of that deal, with
    the key it sent (``tapped``) applied: a tap that reached the site just after another
    phone's Save is in what is offered, never dropped without a word (issue 24)."""
    # as stored now: the match this request read may be from before the other phone's save
    match = Match.objects.get(pk=access.match.pk)
    document = match_document(match)
    deal = Deal.objects.filter(match=match, number=number).first()
    if deal is None:
        return _deal_gone(request, match, number)
    finished = Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED).exists()
    page = _page(match, number, document=document)
    offer = ""
    tap_kept = False
    if posted:
        try:
            seen = page.read_posted(posted)
        except st.UnreadableDraft:
            seen = None
        if seen is not None and tapped not in NOT_A_TAP:
            tried = seen.copy()
            try:
                page.apply(tried, tapped, seen=seen)
            except (st.UnknownAction, RuleError):
                pass  # a key the correction has no use for: what the screen showed stays
            else:
                tap_kept = page.content_of(tried) != page.content_of(seen)
                seen = tried
        if seen is not None:
            try:
                shown = page.deal_for_saving(seen) if _offerable(seen) else None
            except RuleError:  # not a deal it could save yet (a pot question left open)
                shown = None
            if shown is not None and not _same_deal(match, number, shown, deal.data):
                offer = seen.dumps()
    context = {
        "match": match,
        "deal": deal,
        "editing": editing,
        "deal_number": number,
        "saved_by": deal.saved_by,
        # this account's own save, whose answer was lost (a probe: "saved by eleni_k", her own)
        "by_you": bool(deal.saved_by) and deal.saved_by == access.label,
        "breakdown_url": reverse("deal_breakdown", args=[match.pk, number]),
        "offer": offer,
        "tap_kept": tap_kept and bool(offer),
        "offer_url": _entry_url(match, number),
        "next_url": None if finished else _entry_url(match, None),
        "scoreboard_url": _scoreboard_url(match),
    }
    template = "entry/stored.html"
    if request.htmx:
        template += "#entry"
    return TemplateResponse(request, template, context)


def _meanwhile(
    request: HttpRequest, access: Access, number: int, *, editing: bool, form: EntryForm
) -> HttpResponse:
    """The one answer to a screen whose deal was stored meanwhile, whichever step found it
    (the page's deal number, opening the draft, a tap, a save): :func:`_stored_meanwhile`
    with what that screen showed and the key it sent."""
    posted, tapped = form.cleaned()
    return _stored_meanwhile(request, access, number, editing=editing, posted=posted, tapped=tapped)


def _offerable(seen: Any) -> bool:
    """A Barbu sheet with no contract named shows no deal to offer (a rummy draft always does)."""
    return not isinstance(seen, st.BarbuDraft) or seen.contract is not None


@require_http_methods(["GET", "POST"])
def deal_entry(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """Enter the next deal (``number`` None) or correct deal ``number``."""
    try:
        # the next deal reads no deal: only the scoring state the deals left
        access = match_for_scorer(request, pk, deals=number is not None)
    except AccessDenied as denied:
        return _denied(request, pk, number, denied)
    match = access.match
    editing = number is not None
    # a correction reads the whole match; the next deal only the state its deals left
    document = match_document(match) if editing else None
    form = EntryForm(request.POST) if request.method == "POST" else None
    if editing:
        assert document is not None
        if not 1 <= number <= len(document["deals"]):
            if form is not None and number >= 1:
                # A correction of a deal deleted meanwhile (another phone, another tab)
                return _deal_gone(request, match, number)
            raise Http404
    if not editing and match.is_finished and form is None:
        messages.info(request, _("This match is finished: no deal can be added."))
        return page_redirect(request, _scoreboard_url(match))
    try:
        page = _page(match, number, document=document)
    except RuleError as e:  # the stored deals no longer pass the rules: nothing to enter on
        messages.error(request, rule_messages.message(e), extra_tags=e.code)
        return page_redirect(request, _scoreboard_url(match))
    if not editing and form is not None:
        drawn_for = form.deal_number()
        if drawn_for is not None and drawn_for < page.deal_number:
            # this page was entering a deal that has been stored since
            return _meanwhile(request, access, drawn_for, editing=False, form=form)
    if not editing and match.is_finished:
        messages.info(request, _("This match is finished: no deal can be added."))
        return page_redirect(request, _scoreboard_url(match))
    if page.no_next_deal:
        messages.info(
            request,
            _("Every contract is named: enter what was taken in the deals still to enter."),
        )
        return page_redirect(request, _scoreboard_url(match))
    deal_number = page.deal_number
    base = deal_fingerprint(document["deals"][number - 1]) if editing else ""
    if form is None or not form.from_a_page():
        # a page load writes nothing: a deal in progress begins with its first tap
        stored = draft_peek(
            match=match, number=deal_number, editing=editing, initial=page.initial_content
        )
    else:
        try:
            stored = draft_open(
                match=match,
                number=deal_number,
                editing=editing,
                initial=page.initial_content,
                base=base,
            )
        except DraftGone:  # stored by another phone since this request read the match
            return _meanwhile(request, access, deal_number, editing=editing, form=form)
    view_key = VIEW_KEY.format(pk=match.pk, kind="edit" if editing else "new", number=deal_number)

    state = _State(page=page, stored=stored, view=request.session.get(view_key))
    if form is None:
        state.restored = stored.pk is not None and not page.is_blank(draft_content(stored))
    else:
        response = _post(request, access, form, state, editing=editing, document=document)
        if response is not None:
            return response
    view = page.view_of(state.draft)
    if view and request.session.get(view_key) != view:
        _view_keep(request.session, view_key, view)

    draft = state.draft
    context = page.context(draft, error=state.error)
    context.update(
        {
            "match": match,
            "deal_number": deal_number,
            "editing": editing,
            "post_url": request.path,
            "scoreboard_url": _scoreboard_url(match),
            "draft_json": draft.dumps(),
            "version": _version(state.stored),
            "live": live_entry(
                match, number=deal_number, editing=editing, draft_version=state.stored.version
            ),
            "tap": secrets.token_urlsafe(12),
            "restored": state.restored,
            "overtaken_by": state.overtaken_by,
            "offered": state.offered,
            "unreadable": state.unreadable,
            "confirming": state.confirming,
            "confirming_reset": state.confirming_reset,
            "confirm_lines": page.confirmations(draft),
            "rejected": _rejected(match, number) if editing else None,
        }
    )
    context.update(_kept(request, form))
    template_name = page.TEMPLATE
    if request.htmx:
        template_name += "#entry"
    response = TemplateResponse(request, template_name, context)
    response.add_post_render_callback(_squeezed)
    return response


#: A line break and the indentation after it (the templates' own layout).
_INDENT = re.compile(r"\n\s+")


def _squeezed(response: HttpResponse) -> None:
    """The page without the templates' indentation: a run of white space with a line break in
    it is drawn as one space, as a line break alone is (the entry pages hold no <pre> nor
    <textarea>). A tap's answer is a tenth smaller, compressed."""
    response.content = _INDENT.sub("\n", response.content.decode()).encode()


def _kept(request: HttpRequest, form: EntryForm | None) -> dict[str, Any]:
    """The parts of the page the phone holds already (``{% keep %}``: the pad's keys, the
    trump's row, the contracts…), which an answer to its tap leaves out: said by entry.js with
    a tap sent through htmx (its morph swap keeps them); a whole page draws every part. The
    pad is most of the page: a tap's answer without it is less than half the size."""
    return {"kept_held": form.kept_held() if form is not None and request.htmx else frozenset()}


class _State:
    """What one request does to the deal in progress, and what the page then shows."""

    def __init__(self, *, page: Page, stored: DealDraft, view: Any):
        self.page = page
        self.stored = stored
        self.view = view
        self.draft: Any = page.compose(draft_content(stored), view)
        self.error: RuleError | None = None
        self.restored = False
        self.unreadable = False
        self.confirming = False
        self.confirming_reset = False  # "Start over" asked first (a page without JavaScript)
        self.offered = False
        self.overtaken_by = ""

    def redraw(self, stored: DealDraft, view: Any = None) -> None:
        self.stored = stored
        if view is not None:
            self.view = view
        self.draft = self.page.compose(draft_content(stored), self.view)


def _post(
    request: HttpRequest,
    access: Access,
    form: EntryForm,
    state: _State,
    *,
    editing: bool,
    document: dict[str, Any] | None,
) -> HttpResponse | None:
    """Apply the key a page sent; a response when the page is not drawn again (a save, a deal
    stored meanwhile), else None with ``state`` telling what to draw."""
    page, match = state.page, access.match
    number = page.deal_number
    draft_json, action = form.cleaned()
    if not form.from_a_page():
        state.unreadable = True  # not from a pad: nothing applied, the page drawn afresh
        return None
    drawn_id, drawn_version = _drawn_from(form)
    if editing and drawn_id is not None and drawn_id != state.stored.pk and action != "offer":
        # the correction this page was making is gone: saved by someone (or by this phone)
        return _meanwhile(request, access, number, editing=True, form=form)
    seen = None
    if draft_json is None:  # too long for a draft, or a character no page sends
        state.unreadable = True
    elif draft_json:
        try:
            seen = page.read_posted(draft_json)
        except st.UnreadableDraft as e:
            state.unreadable, state.error = True, e.refusal  # the place, when there is one
    elif action == "save":
        state.unreadable = True  # a save must come from a page that drew the deal
    if state.unreadable:
        # not a page this site drew: no key is applied and nothing is saved; the page
        # starts again from the deal in progress as it is stored
        return None
    if seen is not None:
        state.view = page.view_of(seen) or state.view
        state.draft = page.compose(draft_content(state.stored), state.view)
    if drawn_version is not None and drawn_version != state.stored.version:
        state.overtaken_by = state.stored.updated_by or "?"

    if action == "save":
        refusal = _unsure_save(form, number, editing=editing)
        if refusal is not None:
            state.error = refusal  # the entry stays, drawn afresh, for a deliberate save
            return None
        return _save(request, access, form, state, editing=editing, drawn=drawn_version, seen=seen)
    if action in ("reset", "reset:yes"):
        if action == "reset" and not form.confirmed():
            # every phone's entry is forgotten: asked first (with JavaScript the key asks,
            # data-ask, and sends the answer; without, the page asks here)
            state.confirming_reset = True
            return None
        # started over, and counted so: every phone's view begins afresh too (where its taps
        # went: a hand, a meld now gone; each keeps its side and suit), this one's at once
        stored = draft_reset(
            match=match,
            number=number,
            editing=editing,
            initial=lambda: page.restart_content(draft_content(state.stored), by=access.label),
            by=access.label,
        )
        state.redraw(stored, page.view_of(page.compose(draft_content(stored), state.view)))
        state.overtaken_by = ""
        return None
    if action == "offer" and editing and seen is not None and document is not None:
        state.redraw(
            draft_offer(
                match=match,
                number=number,
                content=page.content_of(seen),
                base=deal_fingerprint(document["deals"][number - 1]),
                by=access.label,
            )
        )
        state.offered, state.overtaken_by = True, ""
        return None
    if action in ("", "edit", "offer"):  # a redraw; "edit": back from a confirmation
        if action == "":  # the live check's: the page is brought up to date, no news in that
            state.overtaken_by = ""
        return None
    return _tap(request, access, form, state, action=action, seen=seen, editing=editing)


def _unsure_save(form: EntryForm, number: int, *, editing: bool) -> RuleError | None:
    """Why a save must not be taken at its word: the page does not say which deal it was
    entering, or it was entering a deal whose number has changed since (a deal before it was
    deleted: the deal in progress is the next deal's, now with an earlier number)."""
    if form.deal_unreadable():
        return RuleError(
            "deal_unreadable",
            _(
                "the page did not say which deal it was entering: check the entry below, "
                "then save it again"
            ),
        )
    drawn_for = form.deal_number()
    if not editing and drawn_for is not None and drawn_for != number:
        return RuleError(
            "deal_renumbered",
            _(
                "a deal before this one was deleted meanwhile, so this is now deal {number}: "
                "check it, then save it"
            ),
            number=number,
        )
    return None


def _tap(
    request: HttpRequest,
    access: Access,
    form: EntryForm,
    state: _State,
    *,
    action: str,
    seen: Any,
    editing: bool,
) -> HttpResponse | None:
    page, match = state.page, access.match
    probe = state.draft.copy()
    try:
        page.apply(probe, action, seen=seen or state.draft)
    except st.UnknownAction:
        return None  # a stale page or a hand-made form: draw the page as it is
    except RuleError as e:
        state.error = e  # e.g. a doubling shortcut the rules do not allow here
        return None
    if page.content_of(probe) == page.content_of(state.draft):
        state.draft = probe  # this phone's own view changed (a side, a meld, a suit)
        state.view = page.view_of(probe)
        return None

    def change(content: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        draft = page.compose(content, state.view)
        page.apply(draft, action, seen=seen or draft.copy())
        return page.content_of(draft), page.view_of(draft)

    tap = form.tap_id()
    try:
        stored, _changed, view = draft_tap(
            match=match,
            number=page.deal_number,
            editing=editing,
            tap=f"{tap}:{action}" if tap else "",
            change=change,
            by=access.label,
        )
    except DraftGone:
        return _meanwhile(request, access, page.deal_number, editing=editing, form=form)
    except RuleError as e:
        state.error = e
        return None
    if not _changed and tap:
        state.overtaken_by = ""  # a tap sent again: it was this phone's, applied once before
    state.redraw(stored, view if view is not None else state.view)
    return None


def _save(
    request: HttpRequest,
    access: Access,
    form: EntryForm,
    state: _State,
    *,
    editing: bool,
    drawn: int | None,
    seen: Any = None,
) -> HttpResponse | None:
    page, match = state.page, access.match
    number = page.deal_number

    def shown(content: Any) -> bool:
        """The deal in progress as stored still shows what this screen had open (other
        phones' steps since were on other sides: no reason to refuse, issue 24). A correction
        is saved only as its screen showed it: it replaces a deal the table saw."""
        return not editing and seen is not None and page.shown_open(seen, content)

    try:
        data = page.deal_for_saving(state.draft)
        # A correction, or a side with nothing entered, is agreed to first (the confirmation
        # posts the same page with confirm=yes); a deal the rules refuse is refused at once,
        # there is nothing to agree to; a screen another phone overtook where it had it open
        # saves nothing (it is drawn afresh: the next Save is taken unless it changes again).
        fresh = drawn is None or drawn == state.stored.version or shown(draft_content(state.stored))
        state.confirming = (
            fresh
            and not form.confirmed()
            and bool(page.confirmations(state.draft))
            and score_with(match, number if editing else None, data, document=page.document).ok
        )
        if state.confirming:
            return None
        _deal, saved_from = deal_save(
            match=match,
            number=number,
            editing=editing,
            version=drawn,
            build=lambda content: page.deal_for_saving(page.compose(content)),
            by=access.actor,
            shown=shown,
        )
    except DraftGone:
        return _meanwhile(request, access, number, editing=editing, form=form)
    except RuleError as e:
        if e.code == "deal_gone":  # deleted on another phone while this one saved
            return _deal_gone(request, match, number)
        gone = None
        if e.code == "deal_changed":
            # another phone changed the stored deal: this correction, saved again, replaces
            # it (the phone has been told, and sees the deal in progress as it is)
            stored = Deal.objects.filter(match=match, number=number).first()
            if stored is not None:
                try:
                    draft_rebase(match=match, number=number, base=deal_fingerprint(stored.data))
                except DraftGone:
                    gone = True
        now = DealDraft.objects.filter(pk=state.stored.pk).first()
        if gone or now is None:  # and then saved by that phone, before this one was told
            return _meanwhile(request, access, number, editing=editing, form=form)
        state.error = e
        state.overtaken_by = ""
        state.redraw(now)
        return None
    # what other phones entered meanwhile on the sides this screen did not have open
    steps = page.steps_elsewhere(seen, saved_from) if seen is not None else []
    elsewhere = (
        " " + _("Also in this deal, from other phones: %(steps)s.") % {"steps": "; ".join(steps)}
        if steps
        else ""
    )
    # this phone's own view of it is done with too: the next deal begins on the first side
    request.session.pop(
        VIEW_KEY.format(pk=match.pk, kind="edit" if editing else "new", number=number), None
    )
    if match.confirmation:
        text = (
            _("Deal %(n)s corrected: it waits for the other side to accept it.")
            if editing
            else _("Deal %(n)s saved: it waits for the other side to accept it.")
        )
        messages.success(request, text % {"n": number} + elsewhere, extra_tags="deal_waiting")
    elif editing:
        messages.success(request, _("Deal %(n)s corrected.") % {"n": number} + elsewhere)
    else:
        messages.success(request, _("Deal %(n)s saved.") % {"n": number} + elsewhere)
    return page_redirect(request, _scoreboard_url(match))


def _rejected(match: Match, number: int) -> Deal | None:
    """Deal ``number`` if the other side rejected it (its correction shows who and why)."""
    for deal in match.deals.all():
        if deal.number == number:
            return deal if deal.status == Deal.Status.REJECTED else None
    return None
