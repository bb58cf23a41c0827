"""Forms of the site's own pages: a new match (players, seats, rules), import, sign up.

The rules' options are described here for people (one line each); their values and defaults
come from the rules core, which also has the last word on every choice: a
:class:`~scorekeeper.rules.errors.RuleError` from a service becomes the error of the field it
names (:func:`add_rule_error`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper import rule_messages
from scorekeeper.inputs import json_problem
from scorekeeper.models import PLAYER_NAME_MAX, Game, name_key
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import engine, rules_with_defaults

# How many may play each game: the rules core's answer.
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    game: engine(game.value).PLAYER_COUNTS for game in Game
}
GAME_BLURBS: dict[str, Promise] = {
    Game.BIRIBA: _("Greek rummy: biribas, trump doubling, the whole suit."),
    Game.BURRACO: _("Italian rummy: pulito, sporco and semipulito burraco."),
    Game.BARBU: _("Four players, seven contracts, doubles between every pair."),
}
# Until the player names are typed, a seat is called by its place at the table.
SEAT_PLACES: dict[int, tuple[Promise, ...]] = {
    2: (_("You"), _("Opposite")),
    3: (_("You"), _("Left"), _("Right")),
    4: (_("You"), _("Left"), _("Opposite"), _("Right")),
    5: (_("You"), _("Left"), _("Opposite left"), _("Opposite right"), _("Right")),  # Salade
}
#: The rules a table of that many players is held to (Barbu's five play Salade only).
TABLE_RULES: dict[tuple[str, int], dict[str, Any]] = {(Game.BARBU, 5): {"variant": "salade"}}


def _default(label: object) -> str:
    """A choice that is the game's default, marked so: ``Off · default``."""
    return _("%(choice)s · default") % {"choice": label}


@dataclass(frozen=True)
class Option:
    """One house rule as the new-match page offers it."""

    key: str
    label: Promise
    help: Promise
    kind: str  # "bool", "choice" or "int"
    choices: tuple[tuple[str, Promise], ...] = ()
    advanced: bool = False
    #: an option that is off unless chosen (its default is none): the words for "off"
    off: Promise | None = None
    #: the numbers of players it is offered to (None: every table of the game)
    seats: tuple[int, ...] | None = None


#: A choice that stands for no value (null): "never".
NEVER = "None"
#: Burraco for three: the form the new-match page starts from (the rules core has no default:
#: the document must say), and the options that apply to that form only.
THREE_FORM_DEFAULT = "fibur"
THREE_FIBUR_ONLY = ("alone_from", "pair_rounding")


YES_NO = (("true", _("Yes")), ("false", _("No")))

OPTIONS: dict[str, tuple[Option, ...]] = {
    Game.BIRIBA: (
        Option("target", _("Target"), _("The match ends when a side reaches it."), "int"),
        Option(
            "sets",
            _("Sets"),
            _("Melds of one rank are allowed; seven of them make a set biriba."),
            "bool",
            YES_NO,
        ),
        Option(
            "trump_doubles",
            _("Trump doubles"),
            _("A biriba in the trump suit scores its bonus twice."),
            "bool",
            YES_NO,
        ),
        Option(
            "card_values",
            _("Card values"),
            _("What the cards are worth."),
            "choice",
            (
                ("standard", _("Joker 20, A 15, 2 and 8–K 10, 3–7 5")),
                ("greek_wikipedia", _("Joker 30, A 15, 2 and 10–K 10, 3–9 5")),
            ),
            advanced=True,
        ),
        Option(
            "whole_suit",
            _("Whole suit"),
            _("A run of all thirteen cards of a suit."),
            "choice",
            (
                ("replaces", _("1000 (dirty 500) instead of the biriba bonus")),
                ("adds", _("1000 (dirty 500) on top of the biriba bonus")),
                ("ordinary", _("Scored as a plain biriba")),
            ),
            advanced=True,
        ),
        Option(
            "close_needs_clean_biriba",
            _("Closing needs a clean biriba"),
            _("A side may only go out once it has a biriba without wild cards."),
            "bool",
            YES_NO,
            advanced=True,
        ),
        Option(
            "pot_needs_biriba",
            _("Biribaki needs a biriba"),
            _("A side may only take its biribaki once it has a biriba."),
            "bool",
            YES_NO,
            advanced=True,
        ),
        Option(
            "going_out_bonus",
            _("Going out bonus"),
            _("Points for the side that closes the deal."),
            "int",
            advanced=True,
        ),
        Option(
            "no_pot_penalty",
            _("No biribaki penalty"),
            _("Points lost by a side that never took its biribaki."),
            "int",
            advanced=True,
        ),
    ),
    Game.BURRACO: (
        Option(
            "preset",
            _("Rules"),
            _("Sets the options below at once; anything you change overrides it."),
            "choice",
            (
                ("classic", _("Classic (to 2000)")),
                ("fibur", _("FIBUR federation (to 2005, semipulito)")),
                ("international", _("International (clean burraco to close)")),
            ),
        ),
        Option(
            "target",
            _("Target"),
            _("The match ends when a side reaches it (classic 2000, FIBUR 2005)."),
            "int",
        ),
        Option(
            "three_players",
            _("Three players"),
            _("How the three play: sides formed in each deal, or each for himself throughout."),
            "choice",
            (
                ("fibur", _("alone against a pair, then each alone (FIBUR)")),
                ("each_alone", _("each alone from the first deal")),
            ),
            seats=(3,),
        ),
        Option(
            "alone_from",
            _("Each alone from"),
            _("Once a player's total reaches it, every later deal is each alone (FIBUR form)."),
            "choice",
            (
                ("1000", "1000"),
                ("1500", "1500"),
                (NEVER, _("Never: solo and pair to the end")),
            ),
            advanced=True,
            seats=(3,),
        ),
        Option(
            "pair_rounding",
            _("Rounding of the pair's half"),
            _("Each player of the pair scores half the pair's total (FIBUR form)."),
            "choice",
            (
                ("up", _("a half point rounded up")),
                ("truncate", _("a half point dropped")),
            ),
            advanced=True,
            seats=(3,),
        ),
        Option(
            "match_deals",
            _("Deals in the match"),
            _("A tournament round: a set number of deals, the difference in victory points."),
            "choice",
            (
                ("3", _("3 deals, FIBUR's victory points")),
                ("4", _("4 deals, FIBUR's victory points")),
            ),
            advanced=True,
            off=_("Play to the target"),
            seats=(2, 4),  # victory points compare two sides
        ),
        Option(
            "semipulito",
            _("Semipulito"),
            _("A burraco whose one wild sits at an end of seven naturals scores 150."),
            "bool",
            YES_NO,
            advanced=True,
        ),
        Option(
            "close_needs",
            _("Closing needs"),
            _("Which burraco a side must have to go out."),
            "choice",
            (("any", _("Any burraco")), ("clean", _("A clean burraco"))),
            advanced=True,
        ),
        Option(
            "set_ranks",
            _("Sets of"),
            _("Which ranks may be melded as sets."),
            "choice",
            (("all", _("Any rank")), ("aces_and_threes", _("Only aces and threes"))),
            advanced=True,
        ),
        Option(
            "duplicate_sets",
            _("Two sets of one rank"),
            _("A side may hold two separate sets of the same rank."),
            "bool",
            YES_NO,
            advanced=True,
        ),
        Option(
            "going_out_bonus",
            _("Going out bonus"),
            _("Points for the side that closes the deal."),
            "int",
            advanced=True,
        ),
        Option(
            "no_pot_penalty",
            _("No pozzetto penalty"),
            _("Points lost by a side that never took its pozzetto."),
            "int",
            advanced=True,
        ),
    ),
    Game.BARBU: (
        Option(
            "variant",
            _("Variant"),
            _("Which contracts are played."),
            "choice",
            (
                ("classic", _("Classic: seven contracts, 28 deals")),
                ("ravage_city", _("Ravage City: eight contracts, 32 deals")),
                ("salade", _("Salade: six negative contracts, 24 deals")),
                ("king", _("King (Rıfkı): 20 deals, no doubling")),
            ),
            seats=(4,),
        ),
        # five players play Salade only (after the four-seat one: refusals name its variants)
        Option(
            "variant",
            _("Variant"),
            _("Which contracts are played."),
            "choice",
            (("salade", _("Salade for five: the black twos out, 10 tricks a deal, 30 deals")),),
            seats=(5,),
        ),
        Option(
            "rotation",
            _("Declarer changes"),
            _("When the next player becomes the declarer."),
            "choice",
            (
                ("series", _("After a whole series of contracts")),
                ("quick", _("After every deal")),
            ),
        ),
        Option(
            "compulsory_doubles",
            _("Compulsory doubles"),
            _("Each player must double every declarer at least twice."),
            "choice",
            (
                ("enforce", _("Enforced: a deal that breaks it is refused")),
                ("warn", _("Warn only")),
                ("off", pgettext_lazy("an option's state", "Off")),
            ),
            advanced=True,
        ),
        Option(
            "undoubled_negative",
            _("Undoubled negative contract"),
            _("A negative contract nobody doubled…"),
            "choice",
            (
                ("split", _("is not played: its points are split")),
                ("play", _("is played as usual")),
            ),
            advanced=True,
        ),
    ),
}
# In Burraco the preset decides the other options; they are only sent when changed.
FOLLOWS_PRESET = {Game.BURRACO: "preset"}


# Django's own message quotes what was sent ("x… is not one of the available choices"), which
# from a hand-made form may be as long as the request: this one quotes nothing.
CHOICE_ERRORS = {"invalid_choice": _("Choose one of the options offered.")}


def as_choice(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _from_choice(option: Option, value: str) -> Any:
    if option.kind == "bool":
        return value == "true"
    if value == NEVER:
        return None
    if value.isdigit():  # a choice of numbers (the deals of a tournament round)
        return int(value)
    return value


class MatchForm(forms.Form):
    """Players in seat order, the first dealer, and the house rules of one game."""

    def __init__(self, *args: Any, game: str, seats: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game = game
        self.seats = seats
        # Burraco for three has options of its own and another target (1505)
        self.three = game == Game.BURRACO and seats == 3
        self.defaults = (
            rules_with_defaults(game, {"three_players": THREE_FORM_DEFAULT}, seats=seats)
            if self.three
            else rules_with_defaults(game, TABLE_RULES.get((game, seats)), seats=seats)
        )
        places = SEAT_PLACES[seats]
        for seat in range(seats):
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                max_length=PLAYER_NAME_MAX,
                widget=forms.TextInput(
                    attrs={
                        "list": "known-players",
                        "autocomplete": "off",
                        "autocapitalize": "words",
                        "placeholder": places[seat],
                    }
                ),
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("Deals first") if game != Game.BARBU else _("Declares first"),
            choices=[(seat, places[seat]) for seat in range(seats)],
            coerce=int,
            initial=0,
            widget=forms.RadioSelect,
            error_messages=CHOICE_ERRORS,
        )
        follows = FOLLOWS_PRESET.get(game)
        self.options: list[Option] = []
        for option in OPTIONS[game]:
            if option.key not in self.defaults and option.off is None:
                continue  # an option this version of the rules does not know
            if option.seats is not None and seats not in option.seats:
                continue  # an option of another table (three players, victory points)
            self.options.append(option)
            default = self.defaults.get(option.key)
            # the options of a table of three are not the preset's: each is asked
            optional = follows is not None and option.key != follows and option.seats != (3,)
            if option.kind == "int":
                field: forms.Field = forms.IntegerField(
                    min_value=0,
                    step_size=5,
                    required=not optional,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
                if optional:
                    field.widget.attrs["placeholder"] = _("as preset")
                if self.three and option.key == "target":
                    field.widget.attrs["placeholder"] = str(default)
            else:
                choices = [
                    (value, _default(label) if value == as_choice(default) else label)
                    for value, label in option.choices
                ]
                if option.off is not None:  # left at none unless chosen
                    choices = [("", _default(option.off)), *choices]
                elif optional:
                    choices = [("", _("As the preset says")), *choices]
                field = forms.ChoiceField(
                    choices=choices,
                    # the FIBUR form's options: left out, the rules' default
                    required=not optional and option.key not in THREE_FIBUR_ONLY,
                    widget=forms.RadioSelect if not optional else forms.Select,
                    error_messages=CHOICE_ERRORS,
                )
            field.label = option.label
            field.help_text = option.help
            if self.three and option.key == "target":
                field.help_text = _(
                    "The match ends when a player reaches it: 1505 with three, whatever the rules."
                )
            field.initial = None if optional else as_choice(default)
            field.option = option  # type: ignore[attr-defined]
            self.fields[f"opt_{option.key}"] = field
        # what this table is held to, whatever was chosen for another (Barbu's five: Salade)
        for key, value in TABLE_RULES.get((game, seats), {}).items():
            self.initial[f"opt_{key}"] = value
        # a rule of the table, not of the game (scorekeeper/confirmation/)
        self.fields["confirmation"] = forms.ChoiceField(
            label=_("Confirmation by the other side"),
            help_text=_(
                "A deal saved by one side counts once a player of another side accepts it "
                "on their own phone (in Barbu, any other player)."
            ),
            choices=[
                ("off", _default(pgettext_lazy("an option's state", "Off"))),
                ("on", pgettext_lazy("an option's state", "On")),
            ],
            initial="off",
            required=False,  # left out: off
            widget=forms.RadioSelect,
            error_messages=CHOICE_ERRORS,
        )

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{o.key}"] for o in self.options if not o.advanced]

    @property
    def advanced_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{o.key}"] for o in self.options if o.advanced]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seen: dict[str, int] = {}
        for seat in range(self.seats):
            name = data.get(f"player_{seat}")
            if not name:
                continue
            key = name_key(name)
            if key in seen:
                self.add_error(
                    f"player_{seat}",
                    _("%(name)s already sits in seat %(seat)s.")
                    % {"name": name, "seat": seen[key] + 1},
                )
            seen[key] = seat
        return data

    def rules(self) -> dict[str, Any]:
        rules: dict[str, Any] = {}
        for option in self.options:
            value = self.cleaned_data.get(f"opt_{option.key}")
            if value is None or value == "":
                continue
            rules[option.key] = value if option.kind == "int" else _from_choice(option, value)
        if rules.get("three_players") == "each_alone":
            # the FIBUR form's options have no effect then: left at their default, left out
            # (one changed is sent, and the rules say why it cannot be)
            for key in THREE_FIBUR_ONLY:
                if key in rules and rules[key] == self.defaults.get(key):
                    del rules[key]
        return rules

    def match_kwargs(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [self.cleaned_data[f"player_{seat}"] for seat in range(self.seats)],
            "first_dealer": self.cleaned_data["first_dealer"],
            "rules": self.rules(),
            "confirmation": self.cleaned_data.get("confirmation") == "on",
        }

    def field_for(self, where: tuple[str, ...]) -> str | None:
        if not where:
            return None
        if where[0].startswith("players[") and where[0].endswith("]"):
            return f"player_{where[0][8:-1]}"
        if where[0] == "first_dealer":
            return "first_dealer"
        if where[0] == "rules" and len(where) > 1 and f"opt_{where[1]}" in self.fields:
            return f"opt_{where[1]}"
        return None


def add_rule_error(form: forms.Form, error: RuleError) -> None:
    """Show a refusal of the rules on the field it names, or above the form."""
    field_for = getattr(form, "field_for", None)
    field = field_for(error.where) if field_for else None
    text = rule_messages.text(error) if field else rule_messages.message(error)
    form.add_error(field, forms.ValidationError(text, code=error.code))


#: A pasted document up to this many characters is shown again with its refusal, to be
#: corrected in place; a longer one is not (the page would be megabytes): it is pasted again.
PASTE_SHOWN_MAX = 64 * 1024


class PasteArea(forms.Textarea):
    """The paste box: what was pasted comes back with a refusal unless it is very long."""

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, str) and len(value) > PASTE_SHOWN_MAX:
            return None
        return super().format_value(value)


class ImportForm(forms.Form):
    """A match document, uploaded as a file or pasted."""

    file = forms.FileField(label=_("Match document (.json)"), required=False)
    text = forms.CharField(
        label=_("…or paste it here"),
        required=False,
        widget=PasteArea(attrs={"rows": 4, "spellcheck": "false"}),
    )

    MAX_BYTES = 2 * 1024 * 1024  # 2 MB

    @property
    def paste_not_shown(self) -> bool:
        """A pasted document too long to be shown again (see :data:`PASTE_SHOWN_MAX`)."""
        pasted = self.data.get("text") if self.is_bound else None
        return isinstance(pasted, str) and len(pasted) > PASTE_SHOWN_MAX

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("The file is too large for a match document."))
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        else:
            text = data.get("text") or ""
        if not text.strip():
            raise forms.ValidationError(_("Choose a file or paste a match document."))
        try:
            data["document"] = json.loads(text)
        except json.JSONDecodeError as e:
            raise forms.ValidationError(json_problem(e)) from None
        except (ValueError, RecursionError):
            # Valid JSON Python will not read: nested deeper than it recurses, or a number
            # longer than it converts (sys.get_int_max_str_digits).
            raise forms.ValidationError(
                _(
                    "This JSON cannot be read as a match document: it is nested too deeply "
                    "or holds a number too long."
                )
            ) from None
        return data


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)
