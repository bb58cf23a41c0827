import pytest
from django.core.management import call_command
from django.db import IntegrityError

from scorekeeper.models import PLAYER_NAME_MAX, Deal, Match, Player, name_key

pytestmark = pytest.mark.django_db


def test_name_key_ignores_case_and_spacing_in_any_script():
    assert name_key("  Anna   Maria ") == name_key("anna maria") == "anna maria"
    assert name_key("ΆΝΝΑ") == name_key("άννα")


def test_the_key_of_the_longest_name_fits_its_column():
    """Case folding can make a name longer (ß → ss, ΐ → three code points): the key column
    holds the folded form of any name the site accepts, or PostgreSQL refuses the row."""
    longest_fold = max(len(chr(c).casefold()) for c in range(0x110000))
    key_field = Player._meta.get_field("key")
    assert key_field.max_length >= PLAYER_NAME_MAX * longest_fold
    assert len(name_key("ΐ" * PLAYER_NAME_MAX)) <= key_field.max_length


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
