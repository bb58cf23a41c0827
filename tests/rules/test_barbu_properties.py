"""Properties of Barbu scoring, on random deals and random whole matches (hypothesis)."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import Contract, Double, Shortcut
from scorekeeper.rules.barbu.doubles import business_between, check_doubles
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import score_document, score_document_full

PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
PAIRS = list(itertools.combinations(range(4), 2))


def compositions(total):
    return (
        st.lists(st.integers(0, total), min_size=3, max_size=3)
        .map(sorted)
        .map(lambda c: [c[0], c[1] - c[0], c[2] - c[1], total - c[2]])
    )


@st.composite
def suit_tables(draw):
    """Cards taken by suit, from a real distribution of 52 cards in 13 tricks."""
    cards = draw(st.permutations(range(52)))
    winners = draw(st.lists(st.integers(0, 3), min_size=13, max_size=13))
    table = [[0] * 4 for _ in range(4)]
    for trick, seat in enumerate(winners):
        for card in cards[4 * trick : 4 * trick + 4]:
            table[seat][card // 13] += 1
    return table


@st.composite
def contract_data(draw, contract):
    if contract in ("no_tricks",):
        return {"tricks": draw(compositions(13))}
    if contract == "trumps":
        return {"trump": draw(st.sampled_from("SHDC")), "tricks": draw(compositions(13))}
    if contract == "no_hearts":
        hearts = draw(compositions(13))
        ace = draw(st.sampled_from([s for s in range(4) if hearts[s]]))
        return {"hearts": hearts, "ace_of_hearts": ace}
    if contract == "no_queens":
        return {"queens": draw(compositions(4))}
    if contract == "barbu":
        return {"king_of_hearts": draw(st.integers(0, 3))}
    if contract == "no_last_two":
        return {"last_two": draw(st.lists(st.integers(0, 3), min_size=2, max_size=2))}
    if contract == "domino":
        return {"finish_order": draw(st.permutations(range(4)))}
    assert contract == "ravage_city"
    return {"suits": draw(suit_tables())}


@st.composite
def legal_doubles(draw, declarer, contract):
    """Any set of businesses the rules allow, in any order."""
    out = []
    for a, b in PAIRS:
        options = [None]
        for by, on in ((a, b), (b, a)):
            refusal = barbu.double_refusal(by, on, declarer=declarer, contract=Contract(contract))
            if refusal is None:
                options.append((by, on))
        pick = draw(st.sampled_from(options))
        if pick is not None:
            out.append(Double(*pick, redoubled=draw(st.booleans())))
    return draw(st.permutations(out))


def doubles_json(doubles):
    return [{"by": d.by, "on": d.on, "redoubled": d.redoubled} for d in doubles]


@st.composite
def matches(draw, compulsory):
    """A whole classic or Ravage City match the rules allow. With ``compulsory`` every other
    player doubles the declarer in every deal (plus any other legal business)."""
    variant = draw(st.sampled_from(["classic", "ravage_city"]))
    rules_raw = {
        "variant": variant,
        "rotation": draw(st.sampled_from(["series", "quick"])),
        "undoubled_negative": draw(st.sampled_from(["split", "play"])),
        "compulsory_doubles": "enforce" if compulsory else "off",
    }
    rules = barbu.parse_rules(rules_raw)
    first = draw(st.integers(0, 3))
    header = MatchHeader(game="barbu", players=tuple(PLAYERS), first_dealer=first)
    orders = {
        s: draw(st.permutations([c.value for c in barbu.contracts_of(rules.variant)]))
        for s in range(4)
    }
    used = {s: 0 for s in range(4)}
    deals = []
    for index in range(barbu.match_length(rules)):
        declarer = barbu.declarer_of(header, rules, index)
        contract = orders[declarer][used[declarer]]
        used[declarer] += 1
        doubles = list(draw(legal_doubles(declarer, contract)))
        if compulsory:
            for by in set(range(4)) - {declarer}:
                if business_between(doubles, by, declarer) is None:
                    doubles.append(Double(by, declarer))
        deal = {"contract": contract, "doubles": doubles_json(doubles)}
        if not barbu.is_split(rules, Contract(contract), doubles):
            deal.update(draw(contract_data(contract)))
        deals.append(deal)
    return {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "rules": rules_raw,
        "players": PLAYERS,
        "first_dealer": first,
        "deals": deals,
    }


@settings(max_examples=60, deadline=None)
@given(matches(compulsory=False))
def test_any_complete_random_match_sums_to_zero(document):
    _, result, out = score_document_full(document)
    assert out["finished"] is True
    assert sum(out["totals"]) == 0
    rules = barbu.parse_rules(document["rules"])
    if rules.rotation is barbu.Rotation.SERIES:
        k = barbu.contracts_per_declarer(rules.variant)
        assert all(sum(result.running[n]) == 0 for n in range(k - 1, 4 * k, k))
    for deal in out["deals"]:
        total = barbu.contract_total(rules, Contract(deal["contract"]))
        assert sum(deal["score"]["raw"]) == sum(deal["score"]["total"]) == total


@settings(max_examples=30, deadline=None)
@given(matches(compulsory=True))
def test_any_complete_random_match_with_compulsory_doubles_is_accepted_and_sums_to_zero(document):
    out = score_document(document)
    assert out["finished"] is True
    assert sum(out["totals"]) == 0
    assert isinstance(out["winner"], int) or out["totals"].count(max(out["totals"])) > 1


@given(
    st.lists(st.integers(-100, 100), min_size=4, max_size=4),
    st.data(),
)
def test_settlement_never_changes_a_deals_sum(raw, data):
    doubles = []
    for a, b in PAIRS:
        pick = data.draw(st.sampled_from([None, (a, b), (b, a)]))
        if pick is not None:
            doubles.append(Double(*pick, redoubled=data.draw(st.booleans())))
    part, lines = barbu.settle(raw, doubles)
    assert sum(part) == 0
    for line in lines:
        assert line.amount == line.factor * (raw[line.by] - raw[line.on])
    for seat in range(4):
        formula = sum(
            d.factor * (raw[seat] - raw[d.on if d.by == seat else d.by])
            for d in doubles
            if d.involves(seat)
        )
        assert part[seat] == formula


CLASSIC = [c.value for c in barbu.contracts_of(barbu.Variant.CLASSIC)]


@given(st.data())
def test_a_documents_scores_do_not_depend_on_the_order_of_its_doubles(data):
    contract = data.draw(st.sampled_from(CLASSIC))
    doubles = data.draw(legal_doubles(0, contract).filter(bool))
    deal = {"contract": contract, **data.draw(contract_data(contract))}
    shuffled = data.draw(st.permutations(doubles))

    def scored(ds):
        document = {
            "format": "scorekeeper-match/1",
            "game": "barbu",
            "players": PLAYERS,
            "deals": [deal | {"doubles": doubles_json(ds)}],
        }
        out = score_document(document)
        return out["deals"][0]["score"], out["totals"]

    assert scored(doubles) == scored(shuffled)


@given(st.data())
def test_shortcuts_expand_to_exactly_the_pairs_they_describe(data):
    declarer = data.draw(st.integers(0, 3))
    contract = Contract(data.draw(st.sampled_from(CLASSIC)))
    by = data.draw(st.integers(0, 3))
    kind = data.draw(st.sampled_from(list(Shortcut)))
    existing = tuple(data.draw(legal_doubles(declarer, contract.value)))
    try:
        after = barbu.expand_shortcut(kind, by, declarer, contract, existing)
    except RuleError as e:
        assert kind is Shortcut.FAMILY and (by == declarer or contract.positive), e.code
        return
    before = {d.pair: d for d in existing}
    got = {d.pair: d for d in after}
    assert len(got) == len(after)  # still one business per pair
    others = [s for s in range(4) if s != by]
    if kind is Shortcut.FAMILY:
        described = {frozenset((by, t)) for t in others if t != declarer}
    else:
        described = {frozenset((by, t)) for t in others}
    # pairs not described are untouched
    for pair, d in before.items():
        if pair not in described:
            assert got[pair] == d
    assert set(got) - set(before) <= described
    for pair in described:
        (other,) = pair - {by}
        old = before.get(pair)
        new = got.get(pair)
        allowed = barbu.double_refusal(by, other, declarer=declarer, contract=contract) is None
        if old is None:
            assert (new == Double(by, other)) if allowed else new is None
        elif kind is Shortcut.MAXIMUM and old.on == by:
            assert new == Double(old.by, old.on, redoubled=True)
        else:
            assert new == old
    check_doubles(
        after, declarer=declarer, contract=contract, rules=barbu.DEFAULT_RULES, names=PLAYERS
    )
