"""Renaming, merging and removing an account's players (scorekeeper/players/services.py): every
match follows, the per-owner key holds, a refusal says why and changes nothing; and two phones
doing it at once, with real transactions and connections."""

from __future__ import annotations

import pytest

from scorekeeper import services
from scorekeeper.models import Match, MatchSeat, Player
from scorekeeper.players import services as players
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_queryset, match_scored
from tests.conftest import rummy_deal
from tests.test_concurrency import at_once, codes, fresh


def player(user, name: str) -> Player:
    return Player.objects.get(owner=user, name=name)


def names_of(match: Match) -> list[str]:
    return [p.name for p in match_queryset().get(pk=match.pk).seated_players]


# --- rename ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_rename_shows_in_every_match_and_redraws_their_phones(make_match, user):
    first = make_match("biriba", deals=1)
    second = make_match("barbu", deals=2, players=["Dora", "Eleni", "Anna", "Fotis"])
    untouched = make_match("burraco", players=["Babis", "Chris"])
    versions = {m.pk: fresh(m).version for m in (first, second, untouched)}
    anna = player(user, "Anna")
    renamed = players.player_rename(player=anna, name="  Άννα   Μαρία ")
    assert renamed.pk == anna.pk and renamed.name == "Άννα Μαρία" and anna.name == "Άννα Μαρία"
    assert names_of(first) == ["Άννα Μαρία", "Babis", "Chris", "Dora"]
    assert names_of(second)[2] == "Άννα Μαρία"
    assert fresh(first).version == versions[first.pk] + 1
    assert fresh(second).version == versions[second.pk] + 1
    assert fresh(untouched).version == versions[untouched.pk]
    # the match is scored under the new name: its document and its sides say it
    document = match_scored(match_queryset().get(pk=first.pk))[2]
    assert document["players"][0] == "Άννα Μαρία"
    # a new match with the new name finds the same player
    again = make_match("biriba", players=["άννα  μαρία", "Zoe"])
    assert MatchSeat.objects.get(match=again, seat=0).player_id == anna.pk


@pytest.mark.django_db
def test_another_spelling_of_the_same_name_is_a_rename(make_match, user):
    make_match("biriba", players=["anna", "Babis"])
    anna = player(user, "anna")
    assert players.player_rename(player=anna, name="Anna").name == "Anna"
    assert player(user, "Anna").pk == anna.pk
    versions = fresh(Match.objects.get()).version
    players.player_rename(player=anna, name="Anna")  # the same name: nothing changes
    assert fresh(Match.objects.get()).version == versions


@pytest.mark.django_db
def test_a_rename_onto_another_player_s_name_is_refused_and_suggests_merging(make_match, user):
    make_match("biriba", players=["Anna", "Babis"])
    make_match("biriba", players=["Ana", "Chris"])
    ana, anna = player(user, "Ana"), player(user, "Anna")
    for typed in ("Anna", "ANNA", " anna ", "Ａｎｎａ"):
        with pytest.raises(RuleError) as refused:
            players.player_rename(player=ana, name=typed)
        assert refused.value.code == "player_name_taken"
        assert refused.value.params["other"] == anna.pk
        assert refused.value.message == (
            '"Anna" is already one of your players: if they are the same person, merge the '
            "two instead"
        )
    assert player(user, "Ana").pk == ana.pk


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "name_missing"),
        ("   ", "name_missing"),
        ("x" * 41, "name_too_long"),
        ("An\u200bna", "name_invisible"),
        ("\u202eAnna", "name_direction"),
        ("An\x00na", "name_control"),
    ],
)
def test_a_name_the_site_refuses_is_refused_with_its_reason(make_match, user, name, code):
    make_match("biriba", players=["Anna", "Babis"])
    with pytest.raises(RuleError) as refused:
        players.player_rename(player=player(user, "Anna"), name=name)
    assert refused.value.code == code
    assert player(user, "Anna")


@pytest.mark.django_db
def test_forty_characters_is_a_name(make_match, user):
    make_match("biriba", players=["Anna", "Babis"])
    forty = "Anastasia-Bartholomew Christophoros-Doro"
    assert len(forty) == 40
    assert players.player_rename(player=player(user, "Anna"), name=forty).name == forty


# --- merge ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_merge_moves_every_seat_and_removes_the_other_name(make_match, user):
    misspelt = [
        make_match("biriba", players=["Ana", "Babis"]),
        make_match("barbu", players=["Chris", "Ana", "Dora", "Eleni"]),
    ]
    right = make_match("burraco", players=["Anna", "Fotis"], deals=1)
    versions = {m.pk: fresh(m).version for m in (*misspelt, right)}
    merged = players.player_merge(player=player(user, "Ana"), into=player(user, "Anna"))
    assert (merged.name, merged.into.name, merged.matches) == ("Ana", "Anna", 2)
    assert not Player.objects.filter(owner=user, name="Ana").exists()
    assert names_of(misspelt[0]) == ["Anna", "Babis"]
    assert names_of(misspelt[1]) == ["Chris", "Anna", "Dora", "Eleni"]
    anna = player(user, "Anna")
    assert MatchSeat.objects.filter(player=anna).count() == 3
    for match in misspelt:
        assert fresh(match).version == versions[match.pk] + 1
    assert fresh(right).version == versions[right.pk]
    # the matches go on under the name that stayed
    services.deal_record(match=fresh(misspelt[0]), data=rummy_deal("biriba"))


@pytest.mark.django_db
def test_two_who_sit_at_one_table_are_two_people(make_match, user):
    make_match("biriba", players=["Anna", "Ana"])
    make_match("biriba", players=["Anna", "Ana", "Chris", "Dora"])
    make_match("burraco", players=["Ana", "Babis"])
    with pytest.raises(RuleError) as refused:
        players.player_merge(player=player(user, "Ana"), into=player(user, "Anna"))
    assert refused.value.code == "players_share_a_match"
    assert refused.value.message == (
        '"Ana" and "Anna" sit at the same table in 2 matches: they are two people, and cannot '
        "be merged"
    )
    assert MatchSeat.objects.filter(player__name="Ana").count() == 3


@pytest.mark.django_db
def test_a_player_is_not_merged_with_themselves_nor_with_another_account_s(
    make_match, user, other_user
):
    make_match("biriba", players=["Anna", "Babis"])
    make_match("biriba", owner=other_user, players=["Anna", "Chris"])
    anna = player(user, "Anna")
    with pytest.raises(RuleError) as refused:
        players.player_merge(player=anna, into=anna)
    assert refused.value.code == "same_player"
    with pytest.raises(ValueError):
        players.player_merge(player=anna, into=player(other_user, "Anna"))


@pytest.mark.django_db
def test_a_player_gone_meanwhile_is_said_so(make_match, user):
    make_match("biriba", players=["Ana", "Babis"])
    make_match("biriba", players=["Anna", "Chris"])
    ana, anna = player(user, "Ana"), player(user, "Anna")
    players.player_merge(player=ana, into=anna)
    for call in (
        lambda: players.player_merge(player=ana, into=anna),
        lambda: players.player_rename(player=ana, name="Anastasia"),
        lambda: players.player_remove(player=ana),
    ):
        with pytest.raises(RuleError) as refused:
            call()
        assert refused.value.code == "player_gone"


# --- remove ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_only_a_player_in_no_match_is_removed(make_match, user):
    match = make_match("biriba", players=["Anna", "Babis"])
    with pytest.raises(RuleError) as refused:
        players.player_remove(player=player(user, "Anna"))
    assert refused.value.code == "player_in_matches"
    assert refused.value.message == (
        '"Anna" sits in 1 match: only a player who sits in none can be removed'
    )
    Match.objects.filter(pk=match.pk).delete()
    assert players.player_remove(player=player(user, "Anna")) == "Anna"
    assert not Player.objects.filter(owner=user, name="Anna").exists()


# --- at once --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_phones_renaming_two_players_to_one_name_rename_one(make_match, user):
    make_match("biriba", players=["Ana", "Anne", "Chris", "Dora"])
    ana, anne = player(user, "Ana"), player(user, "Anne")
    for round_ in range(4):
        name = f"Anna {round_}"
        results, errors = at_once(
            lambda name=name: players.player_rename(player=ana, name=name),
            lambda name=name: players.player_rename(player=anne, name=name.upper()),
        )
        assert len(results) == 1 and codes(errors) == ["player_name_taken"]
        assert Player.objects.filter(owner=user, key=f"anna {round_}").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_merging_a_pair_each_way_merge_once(make_match, user):
    """Ana into Anna on one phone, Anna into Ana on the other: one of the two is done, the
    other finds a player gone; never both gone, never a deadlock."""
    for round_ in range(4):
        a, b = f"Ana{round_}", f"Anna{round_}"
        make_match("biriba", players=[a, "Babis"])
        make_match("biriba", players=[b, "Chris"])
        one, two = player(user, a), player(user, b)
        results, errors = at_once(
            lambda one=one, two=two: players.player_merge(player=one, into=two),
            lambda one=one, two=two: players.player_merge(player=two, into=one),
        )
        assert len(results) == 1 and codes(errors) == ["player_gone"]
        (kept,) = Player.objects.filter(owner=user, name__in=[a, b])
        assert MatchSeat.objects.filter(player=kept).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_merge_racing_a_removal_of_the_same_player(make_match, user):
    """The removal of one who sits in no match, against a merge of that one into another:
    whichever comes first, the other is refused by name."""
    make_match("biriba", players=["Anna", "Babis"])
    for round_ in range(4):
        nobody = services.player_get_or_create(owner=user, name=f"Ana{round_}")
        anna = player(user, "Anna")
        results, errors = at_once(
            lambda n=nobody: players.player_remove(player=n),
            lambda n=nobody, a=anna: players.player_merge(player=n, into=a),
        )
        assert len(results) == 1 and codes(errors) == ["player_gone"]
        assert not Player.objects.filter(pk=nobody.pk).exists()
        assert MatchSeat.objects.filter(player=anna).count() == 1
