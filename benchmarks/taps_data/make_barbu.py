"""How benchmarks/taps_data/barbu.json and barbu-ravage.json were made (seeded: run again, the
same files): whole Barbu matches (classic, 28 deals; Ravage City, 32), each declarer naming
every contract once in a shuffled order, every other player paying their two compulsory
doubles on the declarer, some doubles between defenders and redoubles, two contracts of each
series left undoubled (a negative one is then split); the data dealt from a shuffled pack.
The rules core checks each match before it is written."""

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from scorekeeper.rules import match as rules_match  # noqa: E402 (after the path)

PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
CLASSIC = ["no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "trumps", "domino"]
POSITIVE = {"trumps", "domino"}


def tricks(rng):
    t = [0] * 4
    for _ in range(13):
        t[rng.choices(range(4), weights=[1, 1.2, 0.9, 1.1])[0]] += 1
    return t


def hands(rng, t):
    cards = [(s, r) for s in "SHDC" for r in range(13)]
    rng.shuffle(cards)
    out, i = [], 0
    for n in t:
        out.append(cards[i : i + 4 * n])
        i += 4 * n
    return out


def data(rng, contract):
    t = tricks(rng)
    h = hands(rng, t)
    if contract == "no_tricks":
        return {"tricks": t}
    if contract == "trumps":
        return {"trump": rng.choice("SHDC"), "tricks": t}
    if contract == "no_hearts":
        hearts = [sum(1 for s, r in x if s == "H") for x in h]
        ace = next(k for k, x in enumerate(h) if ("H", 12) in x)
        return {"hearts": hearts, "ace_of_hearts": ace}
    if contract == "no_queens":
        return {"queens": [sum(1 for s, r in x if r == 10) for x in h]}
    if contract == "barbu":
        return {"king_of_hearts": next(k for k, x in enumerate(h) if ("H", 11) in x)}
    if contract == "no_last_two":
        return {"last_two": [rng.randrange(4), rng.randrange(4)]}
    if contract == "domino":
        order = list(range(4))
        rng.shuffle(order)
        return {"finish_order": order}
    if contract == "ravage_city":
        return {"suits": [[sum(1 for s, r in x if s == suit) for suit in "SHDC"] for x in h]}
    raise ValueError(contract)


def series(rng, declarer, contracts, undoubled):
    """One declarer's deals: every other player doubles the declarer twice; a few more
    doubles between players; ``undoubled``: contracts played with no double at all."""
    order = contracts[:]
    rng.shuffle(order)
    deals = [{"contract": c, "doubles": []} for c in order]
    doubled = [k for k, d in enumerate(deals) if d["contract"] not in undoubled]
    others = [(declarer + k) % 4 for k in (1, 2, 3)]
    for p in others:
        for k in rng.sample(doubled, 2):
            deals[k]["doubles"].append({"by": p, "on": declarer})
    for k in doubled:  # nobody chose this one: the player who owes least doubles it
        if not deals[k]["doubles"]:
            deals[k]["doubles"].append({"by": rng.choice(others), "on": declarer})
    for d in deals:
        ds = d["doubles"]
        if d["contract"] in POSITIVE or not ds:
            pass
        elif rng.random() < 0.35:  # a double between two defenders
            a, b = rng.sample(others, 2)
            if not any({x["by"], x["on"]} == {a, b} for x in ds):
                ds.append({"by": a, "on": b})
        for x in ds:  # the declarer redoubles now and then
            if x["on"] == declarer and rng.random() < 0.2:
                x["redoubled"] = True
        ds.sort(key=lambda x: (x["by"], x["on"]))
        if d["contract"] in POSITIVE or ds:
            d.update(data(rng, d["contract"]))
    return deals


def match(rng, variant, contracts, name):
    deals = []
    for declarer in range(4):
        # each contract played with doubles in most series, without in at least one
        undoubled = {
            contracts[(declarer * 2) % len(contracts)],
            contracts[(declarer * 2 + 1) % len(contracts)],
        }
        deals += series(rng, declarer, contracts, undoubled)
    doc = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "players": PLAYERS,
        "first_dealer": 0,
        "deals": deals,
    }
    if variant != "classic":
        doc["rules"] = {"variant": variant}
    rules_match.score_document(doc)  # refuses anything illegal
    return doc


rng = random.Random(13)
classic = match(rng, "classic", CLASSIC, "taps: classic Barbu")
ravage = match(rng, "ravage_city", CLASSIC + ["ravage_city"], "taps: Ravage City")
for path, doc in (("barbu.json", classic), ("barbu-ravage.json", ravage)):
    with open(HERE / path, "w") as f:
        json.dump([doc], f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(path, len(doc["deals"]))
