import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError
from django.db.models import RestrictedError
from django.urls import reverse

from scorekeeper.models import PLAYER_NAME_MAX, Deal, Match, MatchSeat, Player, name_key

pytestmark = pytest.mark.django_db


def test_name_key_ignores_case_spacing_and_compatibility_forms_in_any_script():
    assert name_key("  Anna   Maria ") == name_key("anna maria") == "anna maria"
    assert name_key("ΆΝΝΑ") == name_key("άννα")
    assert name_key("Ａｎｎａ") == name_key("ANNA")  # fullwidth, as a Japanese keyboard types it


def test_the_key_of_the_longest_name_fits_its_column():
    """Folding can make a name longer (ß → ss, ΐ → three code points, the ligature U+FDFA →
    18): the key column holds the folded form of any name the site accepts, or PostgreSQL
    refuses the row."""
    surrogates = range(0xD800, 0xE000)
    longest_fold = max(len(name_key(chr(c))) for c in range(0x110000) if c not in surrogates)
    key_field = Player._meta.get_field("key")
    assert key_field.max_length >= PLAYER_NAME_MAX * longest_fold
    assert len(name_key("\ufdfa" * PLAYER_NAME_MAX)) <= key_field.max_length
    # and its index entry stays far below PostgreSQL's limit for one (2704 bytes)
    longest_bytes = max(
        len(name_key(chr(c)).encode()) for c in range(0x110000) if c not in surrogates
    )
    assert PLAYER_NAME_MAX * longest_bytes < 2704 - 16


def test_a_player_is_saved_with_its_name_normalised():
    """NFC (a combining diaeresis becomes ë) and spaces collapsed, however the row is made."""
    player = Player.objects.create(owner=User.objects.create(username="u"), name=" Zoe\u0308  Li ")
    player.refresh_from_db()
    assert (player.name, player.key) == ("Zo\u00eb Li", "zo\u00eb li")


def test_a_player_name_with_an_invisible_character_does_not_validate(user):
    """The admin and full_clean refuse what the site refuses (scorekeeper.names)."""
    player = Player(owner=user, name="Anna\u200b")
    with pytest.raises(ValidationError) as refused:
        player.full_clean()
    assert refused.value.message_dict["name"] == [
        "a name may not contain invisible characters (U+200B ZERO WIDTH SPACE)"
    ]
    Player(owner=user, name="Άννα 👩\u200d👩\u200d👧").full_clean()


def test_a_player_name_is_unique_per_owner_ignoring_case(user, other_user):
    Player.objects.create(owner=user, name="Άννα")
    Player.objects.create(owner=other_user, name="άννα")  # another owner: another person
    with pytest.raises(IntegrityError):
        Player.objects.create(owner=user, name="ΆΝΝΑ")


def test_players_in_seat_order_sides_and_standings(make_match):
    match = make_match("biriba", players=["Dora", "Chris", "Babis", "Anna"], deals=1)
    match = Match.objects.get(pk=match.pk)
    assert [p.name for p in match.seated_players] == ["Dora", "Chris", "Babis", "Anna"]
    assert match.column_names == ["Dora & Babis", "Chris & Anna"]
    assert [s["name"] for s in match.standings] == match.column_names
    assert [s["total"] for s in match.standings] == match.totals
    assert str(match) == f"Biriba #{match.pk}"
    assert match.get_absolute_url() == f"/matches/{match.pk}/"


def test_barbu_columns_are_the_players(make_match):
    match = make_match("barbu")
    assert match.column_names == ["Anna", "Babis", "Chris", "Dora"]
    assert [s["total"] for s in match.standings] == [0, 0, 0, 0]


def test_deal_numbers_are_unique_per_match(make_match):
    match = make_match("biriba", deals=1)
    with pytest.raises(IntegrityError):
        Deal.objects.create(match=match, number=1, data={})


def test_deal_numbers_count_from_one(make_match):
    match = make_match("biriba")
    with pytest.raises(IntegrityError):
        Deal.objects.create(match=match, number=0, data={})


def test_the_migrations_match_the_models():
    call_command("makemigrations", "scorekeeper", "--check", "--dry-run", verbosity=0)


def test_deleting_a_user_deletes_their_matches_and_players(user, other_user, make_match):
    """The owner owns the players and the matches: the seats go with the matches, so the
    players may go too (a seat's player is RESTRICT, not PROTECT, which refused this)."""
    make_match("biriba", deals=2)
    make_match("barbu", deals=1)
    theirs = make_match("burraco", owner=other_user)
    user.delete()
    assert not Match.objects.filter(owner_id=user.pk).exists()
    assert not Player.objects.filter(owner_id=user.pk).exists()
    assert list(Match.objects.all()) == [theirs]
    assert MatchSeat.objects.count() == 4 and Deal.objects.count() == 0
    assert Player.objects.filter(owner=other_user).count() == 4


def test_a_player_who_sits_in_a_match_cannot_be_deleted_alone(user, make_match):
    match = make_match("biriba", deals=1)
    with pytest.raises(RestrictedError):
        match.seated_players[0].delete()
    assert Player.objects.count() == 4 and MatchSeat.objects.count() == 4


def test_the_admin_deletes_a_user_who_owns_matches(admin_client, user, make_match):
    make_match("barbu", deals=3)
    url = reverse("admin:auth_user_delete", args=[user.pk])
    assert admin_client.get(url).status_code == 200  # the confirmation lists no protected row
    response = admin_client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert not User.objects.filter(pk=user.pk).exists()
    assert Match.objects.count() == Player.objects.count() == Deal.objects.count() == 0
