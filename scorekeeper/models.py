"""Persistence: matches, the players in their seats, and the deals as the match document holds them.

Scores are never stored as the truth: the rules core derives them from the deals every time
(:func:`scorekeeper.selectors.match_scored`). The few score fields on :class:`Match` (status,
winner, totals, deal count) are a cache for the list of matches, refreshed by the services
whenever a deal changes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper import names
from scorekeeper.rules.base import MatchHeader

PLAYER_NAME_MAX = names.NAME_MAX
#: The most deals a match may hold: far beyond any evening (a Barbu match is 32 at most, a long
#: rummy match a few dozen); a bound so that every number a request carries is bounded.
MAX_DEALS = 100_000


class Game(models.TextChoices):
    BIRIBA = "biriba", pgettext_lazy("game", "Biriba")
    BURRACO = "burraco", pgettext_lazy("game", "Burraco")
    BARBU = "barbu", pgettext_lazy("game", "Barbu")


def name_key(name: str) -> str:
    """The form of a name that makes two spellings the same person ("Anna" = "ANNA" = "anna"
    = fullwidth "Ａｎｎａ"): see :func:`scorekeeper.names.key`."""
    return names.key(name)


def column_names(header: MatchHeader) -> list[str]:
    """Who the scores belong to: the sides in the rummy games, the players in Barbu."""
    if header.game == Game.BARBU:
        return list(header.players)
    return [header.side_name(side) for side in range(header.side_count)]


class Player(models.Model):
    """A person who sits at the table, reused across matches of the same owner."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="players",
        verbose_name=_("owner"),
    )
    name = models.CharField(_("name"), max_length=PLAYER_NAME_MAX, validators=[names.validate])
    # Folded in Python (NFKC, case): SQLite's lower() only folds ASCII, and Greek names are
    # common here. Folding makes one character up to 18 (U+FDFA, an Arabic ligature): the
    # column holds the key of any name the site accepts.
    key = models.CharField(max_length=names.KEY_MAX, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="player_name_unique_per_owner")
        ]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name = names.normalize(self.name)
        self.key = name_key(self.name)
        super().save(*args, **kwargs)


class Match(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="matches",
        verbose_name=_("owner"),
    )
    game = models.CharField(_("game"), max_length=10, choices=Game)
    # Every option with its resolved value (rules.match.rules_with_defaults): the match is
    # always scored under the rules it was played with, whatever the defaults become.
    rules = models.JSONField(_("rules"), default=dict)
    players = models.ManyToManyField(Player, through="MatchSeat", related_name="matches")
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    # Cache of what the rules core derived after the last change (never the source of truth).
    status = models.CharField(
        _("status"), max_length=12, choices=Status, default=Status.IN_PROGRESS
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    winner = models.SmallIntegerField(null=True, blank=True)  # side (rummy) or seat (Barbu)
    totals = models.JSONField(_("totals"), default=list, blank=True)
    deal_count = models.PositiveIntegerField(_("deals"), default=0)
    # Counts every change a phone shows (a deal saved, corrected or deleted, a co-scorer joined
    # or removed, a link regenerated), bumped in the transaction of the change: the live view
    # asks only whether it moved.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    # House rule of the table, not of the game: a deal saved by one side waits for a player of
    # another side to accept it (scorekeeper/confirmation/); off unless the match asks for it.
    confirmation = models.BooleanField(_("confirmation by the other side"), default=False)
    # The seat the owner plays in, when they said (for the confirmation: which side they are)
    owner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # When the owner put it away: hidden from home, kept in the history (scorekeeper/matches/)
    archived = models.DateTimeField(_("archived"), null=True, blank=True)
    # Counts the changes to the deals alone (a deal saved, corrected, deleted, put back,
    # swapped, accepted or rejected), bumped with ``version`` by the services.
    deals_version = models.PositiveBigIntegerField(default=0, editable=False)
    # The rules core's scoring state after the last deal (rules.incremental), with the
    # ``deals_version`` it is the state of: a tap or a save of the next deal scores that one
    # deal against it. Stale (another deals_version) after any other change: worked out again.
    scoring_state = models.JSONField(null=True, blank=True, editable=False)
    # When it came in as an imported document (services.match_import), else never
    imported = models.DateTimeField(_("imported"), null=True, blank=True)
    # The players' statistics of this match (scorekeeper/stats/summary.py): each side's or
    # player's figures read from the rules core's scored document, with the ``deals_version``
    # they are of (like ``scoring_state``: stale at another, worked out again when read).
    stats = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-updated"]
        indexes = [models.Index(fields=["owner", "status", "-updated"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game__in=Game.values), name="match_game_is_known"
            )
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("match_detail", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def seated_players(self) -> list[Player]:
        """The players in seat order (uses the prefetched seats when there are any)."""
        seats = self.seats.all()
        if "seats" not in getattr(self, "_prefetched_objects_cache", {}):
            seats = seats.select_related("player")
        return [seat.player for seat in sorted(seats, key=lambda s: s.seat)]

    @property
    def header(self) -> MatchHeader:
        return MatchHeader(
            game=self.game,
            players=tuple(p.name for p in self.seated_players),
            first_dealer=self.first_dealer,
        )

    @property
    def column_names(self) -> list[str]:
        return column_names(self.header)

    @property
    def standings(self) -> list[dict[str, object]]:
        """The cached totals beside their names, for the list of matches."""
        names = self.column_names
        totals = list(self.totals) or [0] * len(names)
        return [
            {"name": name, "total": total, "winner": self.winner == i}
            for i, (name, total) in enumerate(zip(names, totals, strict=False))
        ]


class MatchSeat(models.Model):
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    # RESTRICT, not PROTECT: a player who sits in a match cannot be deleted alone, but deleting
    # their owner (who owns the matches too, so the seats go with them) deletes everything.
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="seats", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="one_player_a_seat"),
            models.UniqueConstraint(fields=["match", "player"], name="one_seat_a_player"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: seat {self.seat} {self.player}"


class Deal(models.Model):
    """One deal exactly as the match document writes it (canonical, without its score)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="deals", verbose_name=_("match")
    )
    number = models.PositiveIntegerField(_("number"))  # 1-based, as players count
    data = models.JSONField(_("data"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    # who entered it or last corrected it, as the table knows them (an account's name or a
    # co-scorer's display name)
    saved_by = models.CharField(max_length=150, blank=True, default="")
    # What the rules made of it when the match last changed (a cache, never the truth): its
    # score as the exported document writes it and the running totals after it, so that the
    # scoreboard draws its latest deals without scoring the match again. None: not known yet.
    score = models.JSONField(null=True, blank=True, editable=False)
    running = models.JSONField(null=True, blank=True, editable=False)
    # The rules core's scoring state after this deal (rules.incremental.state_json): a
    # correction or a deletion of the next deal scores from it on, never the deals before.
    state = models.JSONField(null=True, blank=True, editable=False)

    class Status(models.TextChoices):
        """Where the deal stands under the match's confirmation by the other side: counted in
        the totals, waiting for another side, or rejected by it (with ``reason``)."""

        COUNTED = "counted", _("counted")
        WAITING = "waiting", _("waiting for the other side")
        REJECTED = "rejected", _("rejected")

    status = models.CharField(max_length=8, choices=Status, default=Status.COUNTED)
    # the seat of whoever saved it last, when they said which player they are
    saved_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # who rejected it, and why (the correction shows it until the deal is saved again)
    rejected_by = models.CharField(max_length=150, blank=True, default="")
    reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="deal_number_from_1"),
        ]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self) -> str:
        return f"{self.match} deal {self.number}"


class DealDraft(models.Model):
    """The deal in progress, shared by every phone of the match: what has been tapped so far
    for the next deal (``editing`` False) or for the correction of deal ``number``.

    ``data`` holds only what the table shares (the cards, counts and choices entered); where a
    phone's taps go (its open side, meld, field, chosen suit) is that phone's own. ``version``
    goes up with every change; ``taps`` remembers the last taps applied, so that a tap sent
    twice (a resend, a retry) is applied once. Deleted when its deal is saved.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="drafts")
    number = models.PositiveIntegerField()
    editing = models.BooleanField(default=False)
    data = models.JSONField(default=dict)
    version = models.PositiveBigIntegerField(default=0)
    taps = models.JSONField(default=list, blank=True)
    updated = models.DateTimeField(auto_now=True)
    updated_by = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number", "editing"], name="one_draft_a_deal"),
        ]

    def __str__(self) -> str:
        what = "correction of deal" if self.editing else "deal"
        return f"{self.match}: {what} {self.number} in progress (v{self.version})"


class MatchMember(models.Model):
    """Someone who joined a match through its score link: a co-scorer, with an account
    (``user``) or on one phone without one (``guest_key``: the digest of that phone's key)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="memberships",
    )
    # NULL, not "": the unique constraint below holds only among phones, not among accounts
    guest_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    name = models.CharField(_("name"), max_length=PLAYER_NAME_MAX)
    joined = models.DateTimeField(auto_now_add=True)
    removed = models.DateTimeField(null=True, blank=True)
    # the seat this co-scorer plays in, when they said (for the confirmation by the other side)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "joined"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="one_membership_an_account",
            ),
            models.UniqueConstraint(
                fields=["match", "guest_key"],
                condition=models.Q(guest_key__isnull=False),
                name="one_membership_a_phone",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, guest_key__isnull=True)
                | models.Q(user__isnull=True, guest_key__isnull=False),
                name="member_is_an_account_or_a_phone",
            ),
        ]
        verbose_name = _("co-scorer")
        verbose_name_plural = _("co-scorers")

    def __str__(self) -> str:
        return f"{self.match}: {self.name}"


class ShareLink(models.Model):
    """A way into a match: ``score`` makes whoever opens it a co-scorer, ``watch`` shows the
    live scoreboard read-only. One of each kind per match; regenerating replaces it."""

    class Kind(models.TextChoices):
        SCORE = "score", _("score")
        WATCH = "watch", _("watch")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="links")
    kind = models.CharField(max_length=5, choices=Kind)
    token = models.CharField(max_length=64, unique=True)
    code = models.CharField(max_length=16, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "kind"], name="one_link_a_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.kind} link"


class MatchChange(models.Model):
    """One change to a match, as the table reads it in the match's history: what, when, by whom
    and, for a deal, the deal before and after with its points per column (side or player).

    Written in the transaction of the change it records (scorekeeper/history/record.py) and
    never edited: :meth:`save` refuses to update a row, the admin shows it read-only.
    """

    class Kind(models.TextChoices):
        ENTERED = "entered", _("deal entered")
        CORRECTED = "corrected", _("deal corrected")
        DELETED = "deleted", _("deal deleted")
        RESTORED = "restored", _("deal restored")
        CONFIRMED = "confirmed", _("deal confirmed")
        REJECTED = "rejected", _("deal rejected")
        SWAPPED = "swapped", _("contracts swapped")
        JOINED = "joined", _("co-scorer joined")
        REMOVED = "removed", _("co-scorer removed")
        LINK = "link", _("link made anew")
        FINISHED = "finished", _("match finished")
        REOPENED = "reopened", _("match going on again")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=12, choices=Kind)
    # who, as the table knows them (an account's name or a co-scorer's display name); the
    # account too when there is one (kept as a name when the account goes)
    by = models.CharField(max_length=150, blank=True, default="")
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    number = models.PositiveIntegerField(null=True, blank=True)  # the deal, counted from 1
    before = models.JSONField(null=True, blank=True)  # the deal as it was (document form)
    after = models.JSONField(null=True, blank=True)  # the deal as it became
    points_before = models.JSONField(null=True, blank=True)  # that deal's points per column
    points_after = models.JSONField(null=True, blank=True)
    # what else the entry says: a removed co-scorer's name, a link's kind, a reason, the
    # change an undo took back (``undo_of``), the other deal of a swap
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["match", "-id"], name="change_match_newest")]
        verbose_name = _("change")
        verbose_name_plural = _("changes")

    def __str__(self) -> str:
        where = f" deal {self.number}" if self.number else ""
        return f"{self.match}: {self.kind}{where} by {self.by or '?'}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValueError("a match's change is never edited")
        super().save(*args, **kwargs)


class AccountSettings(models.Model):
    """What an account chose for itself, beside Django's user: the language its pages speak
    (one of ``settings.LANGUAGES``; empty: the browser's language, or the visitor's choice)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_settings"
    )
    language = models.CharField(_("language"), max_length=8, blank=True, default="")

    class Meta:
        verbose_name = _("account settings")
        verbose_name_plural = _("account settings")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"
