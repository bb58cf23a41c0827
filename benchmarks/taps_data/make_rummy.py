"""Write the rummy deals benchmarks/taps.py replays (run once; the JSON files are kept).

    .venv/bin/python benchmarks/taps_data/make_rummy.py

Realistic Biriba and Burraco deals for four players (two pairs), drawn with a fixed seed and
kept only when the rules core accepts them: runs of 3 to 8 cards (some biribas / burracos),
wild jokers and twos, natural twos (A-2-3), Burraco sets (tris), a pot not taken, going out
and deals where nobody went out. Each file holds the deals as the match document writes them;
the totals files hold the same deals as totals (what a table counting by hand writes).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scorekeeper.rules import match as rules_match  # noqa: E402
from scorekeeper.rules.errors import RuleError  # noqa: E402

HERE = Path(__file__).resolve().parent
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DEALS = 24
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]


def document(game: str, deals: list[dict]) -> dict:
    return {
        "format": "scorekeeper-match/1",
        "game": game,
        "players": PLAYERS,
        "rules": {"target": 100000},
        "deals": deals,
    }


def run_meld(rnd: random.Random, count, length: int, wild: bool) -> list[str] | None:
    suit = rnd.choice(SUITS)
    start = rnd.randint(0, 13 - length)  # 0 = A low ... ; A high when start + length == 13
    ranks = [RANKS[(start + i) % 13] if start + i < 13 else "A" for i in range(length)]
    if start + length == 14:
        return None
    cards = [r + suit for r in ranks]
    if wild and length >= 4:
        at = rnd.randint(1, length - 2)
        if cards[at][:-1] != "2":
            cards[at] = rnd.choice(["JK", "2" + rnd.choice([s for s in SUITS if s != suit])])
    return cards


def set_meld(rnd: random.Random, length: int, wild: bool) -> list[str]:
    rank = rnd.choice([r for r in RANKS if r != "2"])
    cards = [rank + rnd.choice(SUITS) for _ in range(length)]
    if wild:
        cards.append(rnd.choice(["JK", "2" + rnd.choice(SUITS)]))
    return cards


def fits(counts: dict, cards: list[str]) -> bool:
    new = dict(counts)
    for c in cards:
        new[c] = new.get(c, 0) + 1
        if new[c] > (4 if c == "JK" else 2):
            return False
    counts.update(new)
    return True


def draw_side(rnd, game, counts, *, out: bool, partner_cards: int) -> dict:
    melds: list[list[str]] = []
    need_long = out and game == "burraco" or rnd.random() < 0.45
    tries = 0
    while len(melds) < rnd.randint(2, 4) or (need_long and not any(len(m) >= 7 for m in melds)):
        tries += 1
        if tries > 60:
            break
        if game == "burraco" and rnd.random() < 0.3:
            meld = set_meld(rnd, rnd.randint(3, 4), rnd.random() < 0.3)
        else:
            length = rnd.choice([3, 3, 4, 4, 5, 6, 7, 7, 8]) if not need_long else 7
            meld = run_meld(rnd, counts, length, rnd.random() < 0.35)
        if meld and fits(counts, meld):
            melds.append(meld)
            if len(meld) >= 7:
                need_long = False
    hand: list[str] = []
    while len(hand) < partner_cards:
        card = rnd.choice(["JK"] + [r + s for r in RANKS for s in SUITS])
        if fits(counts, [card]):
            hand.append(card)
    return {"melds": melds, "hand": hand}


def draw_deal(rnd: random.Random, game: str) -> dict:
    counts: dict[str, int] = {}
    nobody = rnd.random() < 0.15
    out = None if nobody else rnd.randint(0, 1)
    sides = []
    for k in range(2):
        went_out = out == k
        held = rnd.choice([0, 0, 1, 2, 3, 4]) if went_out else rnd.randint(3, 11)
        side = draw_side(rnd, game, counts, out=went_out, partner_cards=held)
        side["took_pot"] = True if went_out else rnd.random() < 0.7
        side["went_out"] = went_out
        sides.append(side)
    deal: dict = {"sides": sides}
    if game == "biriba":
        deal = {"trump": rnd.choice([*SUITS, None]), "sides": sides}
    return deal


def as_totals(game: str, deal: dict, score: dict) -> dict:
    sides = []
    for side, scored in zip(deal["sides"], score["sides"], strict=True):
        totals = {"melded": scored["melded"], "in_hand": -scored["in_hand"]}
        if scored["bonus_counts"]:
            totals["bonuses"] = dict(scored["bonus_counts"])
        sides.append({"totals": totals, "took_pot": side["took_pot"], "went_out": side["went_out"]})
    out = {"sides": sides}
    if game == "biriba":
        trump_bonus = any("trump" in k for s in sides for k in s["totals"].get("bonuses", {}))
        out = {"trump": deal["trump"] if trump_bonus else None, "sides": sides}
    return out


def main() -> None:
    for game in ("biriba", "burraco"):
        rnd = random.Random(f"taps-{game}")
        deals: list[dict] = []
        scores: list[dict] = []
        while len(deals) < DEALS:
            deal = draw_deal(rnd, game)
            try:
                rules_match.score_document(document(game, [deal]))
            except RuleError as e:
                if "-v" in sys.argv:
                    print(e)
                continue
            try:
                result = rules_match.score_document(document(game, [*deals, deal]))
            except RuleError:
                continue
            deals.append(deal)
            scores.append(result["deals"][-1]["score"])
        totals = [as_totals(game, d, s) for d, s in zip(deals, scores, strict=True)]
        rules_match.score_document(document(game, totals))  # the rules core takes them too
        for mode, kept in (("cards", deals), ("totals", totals)):
            path = HERE / f"{game}_{mode}.json"
            path.write_text(json.dumps(document(game, kept), indent=1) + "\n")
            print(f"{path.relative_to(ROOT)}: {len(kept)} deals")


if __name__ == "__main__":
    main()
