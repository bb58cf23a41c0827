"""Player keys are computed anew: NFKC and case folded, without the joiners and presentation
selectors a name may hold (scorekeeper.names.key), where they were case folded only.

The key functions are copied here, as they were when this migration was written, so that a
later change of scorekeeper.names does not change what this migration did.

Two players of one owner whose names were two people before and are one now (fullwidth
"Ａｎｎａ" and "Anna", both entered before this change) stay two players, with their matches:
the older keeps the plain key, found by every new match; the others get the key followed by
U+001F and their id, which no name makes (every key has its spaces collapsed). Every key is
first set to such a placeholder, so that no row meets another's old key on the way (the unique
constraint on (owner, key) is checked row by row).
"""

import unicodedata

from django.db import migrations

_DROPS = dict.fromkeys(map(ord, "\u200c\u200d\ufe0e\ufe0f"))


def _new_key(name: str) -> str:
    name = " ".join(unicodedata.normalize("NFC", name).split())
    folded = unicodedata.normalize("NFKC", name)
    folded = unicodedata.normalize("NFKC", folded.casefold()).translate(_DROPS)
    return " ".join(folded.split())


def _old_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _recompute(apps, key_of) -> None:
    Player = apps.get_model("scorekeeper", "Player")
    players = list(Player.objects.order_by("owner_id", "created", "pk"))
    for player in players:
        player.key = f"\x1f{player.pk}"
    Player.objects.bulk_update(players, ["key"], batch_size=500)
    taken: set[tuple[int, str]] = set()
    for player in players:
        key = key_of(player.name)
        if (player.owner_id, key) in taken:
            key = f"{key}\x1f{player.pk}"
        taken.add((player.owner_id, key))
        player.key = key
    Player.objects.bulk_update(players, ["key"], batch_size=500)


def forwards(apps, schema_editor) -> None:
    _recompute(apps, _new_key)


def backwards(apps, schema_editor) -> None:
    _recompute(apps, _old_key)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0003_seats_restrict_player_key_longer"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
