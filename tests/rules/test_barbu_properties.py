"""Properties of Barbu scoring, on random deals and random whole matches (hypothesis)."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import Contract, Double, Shortcut
from scorekeeper.rules.barbu.doubles import business_between, check_doubles
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import score_document, score_document_full
from tests.profiles import examples

PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
FIVE = [*PLAYERS, "Eleni"]
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


def pack(seats):
    """The cards a table of ``seats`` plays with (card c: suit ``"SHDC"[c // 13]``, rank
    ``c % 13 + 1``): 52, or 50 for five (the black twos out)."""
    return [c for c in range(52) if not (seats == 5 and c % 13 == 1 and c // 13 in (0, 3))]


@st.composite
def played(draw, seats=4):
    """Every count a real deal gives: the pack shuffled into tricks won at random (from one
    drawn seed, which keeps a whole match's data small)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    cards = pack(seats)
    rng.shuffle(cards)
    count = len(cards) // seats
    winners = [rng.randrange(seats) for _ in range(count)]
    taken: list[list[int]] = [[] for _ in range(seats)]
    for trick, seat in enumerate(winners):
        taken[seat].extend(cards[seats * trick : seats * trick + seats])
    holder = {c: s for s in range(seats) for c in taken[s]}

    def count_of(test):
        return [sum(1 for c in taken[s] if test(c)) for s in range(seats)]

    # Chinese Poker: each pair's row comparisons, won by one and lost by the other
    net = [0] * seats
    for a, b in itertools.combinations(range(seats), 2):
        won = rng.randint(-6, 6)
        net[a] += won
        net[b] -= won
    order = list(range(seats))
    rng.shuffle(order)
    return {
        "tricks": [winners.count(s) for s in range(seats)],
        "hearts": count_of(lambda c: c // 13 == 1),
        "ace_of_hearts": holder[13],
        "king_of_hearts": holder[13 + 12],
        "queens": count_of(lambda c: c % 13 == 11),
        "last_trick": winners[-1],
        "last_two": winners[-2:],
        "suits": [
            [sum(1 for c in taken[s] if c // 13 == k) for k in range(4)] for s in range(seats)
        ],
        "finish_order": order,
        "trump": rng.choice("SHDC"),
        "net": net,
    }


@st.composite
def contract_data(draw, contract, rules=barbu.DEFAULT_RULES):
    """The data a played deal of ``contract`` records under ``rules``, from a real deal."""
    data = draw(played(rules.seats))
    return {key: data[key] for key in barbu.data_keys(rules, Contract(contract)) if key in data}


@st.composite
def legal_doubles(draw, declarer, contract, rules=barbu.DEFAULT_RULES):
    """Any set of businesses the rules allow, in any order."""
    out = []
    for a, b in itertools.combinations(range(rules.seats), 2):
        options = [None]
        for by, on in ((a, b), (b, a)):
            refusal = barbu.double_refusal(
                by, on, declarer=declarer, contract=Contract(contract), rules=rules
            )
            if refusal is None:
                options.append((by, on))
        pick = draw(st.sampled_from(options))
        if pick is not None:
            out.append(Double(*pick, redoubled=draw(st.booleans())))
    return draw(st.permutations(out))


def doubles_json(doubles):
    return [{"by": d.by, "on": d.on, "redoubled": d.redoubled} for d in doubles]


# -- house values: random ones, of the right signs --

PENALTY = st.integers(-60, 0)


@st.composite
def units(draw, contract):
    """Random house values for ``contract``, in rules.md's units and signs."""
    c = Contract(contract)
    if c is Contract.NO_TRICKS:
        return {"trick": draw(PENALTY)}
    if c is Contract.NO_HEARTS:
        extra = {"ace_of_hearts": draw(PENALTY)} if draw(st.booleans()) else {}
        return {"heart": draw(PENALTY), **extra}
    if c is Contract.NO_QUEENS:
        return {"queen": draw(PENALTY)}
    if c is Contract.BARBU:
        return {"king_of_hearts": draw(PENALTY)}
    if c is Contract.NO_LAST_TWO:
        return {"last_two": [draw(PENALTY), draw(PENALTY)]}
    if c is Contract.NO_LAST_TRICK:
        return {"last_trick": draw(PENALTY)}
    if c is Contract.TRUMPS:
        return {"trump_trick": draw(st.integers(0, 10))}
    if c is Contract.DOMINO:
        return {"payouts": draw(st.lists(st.integers(-60, 150), min_size=4, max_size=4))}
    if c is Contract.RAVAGE_CITY:
        return {"most_cards": 12 * draw(st.integers(-5, 0))}
    assert c is Contract.SALADE
    parts = draw(
        st.sets(st.sampled_from(["trick", "heart", "ace_of_hearts", "queen", "king_of_hearts"]))
    )
    out = {part: draw(PENALTY) for part in sorted(parts)}
    last = draw(st.sampled_from([None, "last_trick", "last_two"]))
    if last == "last_trick" or (last is None and not out):
        out["last_trick"] = draw(PENALTY)
    elif last == "last_two":
        out["last_two"] = [draw(PENALTY), draw(PENALTY)]
    return out


def _valued(contract, variant):
    return contract == "chinese_poker" or Contract(contract) in barbu.contracts_of(
        barbu.Variant(variant)
    )


@st.composite
def house_rules(draw, seats=4, zero=False):
    """A random house set: a list of contracts (two or more), values where the variant has
    none and now and then where it has some. ``zero``: Domino's payouts make the contracts'
    totals add up to 0."""
    if seats == 5:
        variant, every = "salade", [c.value for c in barbu.contracts_of(barbu.Variant.SALADE)]
    else:
        variant = draw(st.sampled_from(["classic", "ravage_city", "salade"]))
        every = [c.value for c in barbu.HOUSE_CONTRACTS]
    chosen = draw(st.lists(st.sampled_from(every), min_size=2, max_size=len(every), unique=True))
    if zero and "domino" not in chosen:
        chosen.append("domino")
    values = {
        c: draw(units(c))
        for c in chosen
        if c != "chinese_poker" and (not _valued(c, variant) or draw(st.booleans()))
    }
    raw = {"variant": variant, "contracts": chosen}
    if values:
        raw["contract_values"] = values
    if zero:
        # Domino takes what the other contracts' totals leave
        provisional = barbu.parse_rules(
            raw | {"contract_values": values | {"domino": {"payouts": [0] * 4}}}
        )
        rest = barbu.match_values(provisional).total
        first = draw(st.lists(st.integers(-60, 150), min_size=3, max_size=3))
        values["domino"] = {"payouts": [*first, -rest - sum(first)]}
        raw["contract_values"] = values
    return raw


FORMS = ("plain", "chinese_poker", "house", "house_zero", "five")


@st.composite
def matches(draw, compulsory, form="plain"):
    """A whole match the rules allow: classic or Ravage City (``plain``, what the other
    tests of the rules take), with Chinese Poker, under a random house set (``house``;
    ``house_zero``: one whose totals add up to 0), Salade for five (``five``, now and then
    with a house list), or any of them (``any``). With ``compulsory`` every other player
    doubles the declarer in every deal (plus any other legal business)."""
    if form == "any":
        form = draw(st.sampled_from(FORMS))
    seats = 5 if form == "five" else 4
    rules_raw = {
        "rotation": draw(st.sampled_from(["series", "quick"])),
        "undoubled_negative": draw(st.sampled_from(["split", "play"])),
        "compulsory_doubles": "enforce" if compulsory else "off",
    }
    if form in ("plain", "chinese_poker"):
        rules_raw["variant"] = draw(st.sampled_from(["classic", "ravage_city"]))
    if form == "chinese_poker":
        rules_raw["chinese_poker"] = True
        if draw(st.booleans()):
            rules_raw["chinese_poker_multiplier"] = draw(st.integers(1, 10))
    elif form in ("house", "house_zero"):
        rules_raw |= draw(house_rules(zero=form == "house_zero"))
    elif form == "five":
        rules_raw["variant"] = "salade"
        if draw(st.booleans()):
            rules_raw |= draw(house_rules(seats=5))
    rules = barbu.parse_rules(rules_raw, seats)
    players = FIVE[:seats]
    first = draw(st.integers(0, seats - 1))
    header = MatchHeader(game="barbu", players=tuple(players), first_dealer=first)
    orders = {
        s: draw(st.permutations([c.value for c in barbu.match_contracts(rules)]))
        for s in range(seats)
    }
    used = dict.fromkeys(range(seats), 0)
    deals = []
    for index in range(barbu.match_length(rules)):
        declarer = barbu.declarer_of(header, rules, index)
        contract = orders[declarer][used[declarer]]
        used[declarer] += 1
        doubles = list(draw(legal_doubles(declarer, contract, rules)))
        if compulsory:
            for by in set(range(seats)) - {declarer}:
                if business_between(doubles, by, declarer) is None:
                    doubles.append(Double(by, declarer))
        deal = {"contract": contract, "doubles": doubles_json(doubles)}
        if not barbu.is_split(rules, Contract(contract), doubles):
            deal.update(draw(contract_data(contract, rules)))
        deals.append(deal)
    return {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "rules": rules_raw,
        "players": players,
        "first_dealer": first,
        "deals": deals,
    }


def check_sums(document):
    """A complete match adds up to what its values say (players × the sum of its contracts'
    totals), each deal to its contract's total, and a zero-sum match to 0 after every
    complete series too."""
    match, result, out = score_document_full(document)
    rules = match.rules
    values = barbu.match_values(rules)
    assert out["finished"] is True
    assert sum(out["totals"]) == values.match_total
    if values.zero_sum:
        assert sum(out["totals"]) == 0
        if rules.rotation is barbu.Rotation.SERIES:
            k = barbu.contracts_per_declarer(rules)
            seats = rules.seats
            assert all(sum(result.running[n]) == 0 for n in range(k - 1, seats * k, k))
    for deal in out["deals"]:
        total = barbu.contract_total(rules, Contract(deal["contract"]))
        assert sum(deal["score"]["raw"]) == sum(deal["score"]["total"]) == total
    return match, out


@settings(max_examples=examples(80), deadline=None)
@given(matches(compulsory=False, form="any"))
def test_any_complete_random_match_sums_to_what_its_values_say(document):
    check_sums(document)


@settings(max_examples=examples(40), deadline=None)
@given(matches(compulsory=True, form="any"))
def test_any_complete_random_match_with_compulsory_doubles_is_accepted(document):
    match, out = check_sums(document)
    assert isinstance(out["winner"], int) or out["totals"].count(max(out["totals"])) > 1


@settings(max_examples=examples(40), deadline=None)
@given(matches(compulsory=False, form="chinese_poker"))
def test_a_complete_chinese_poker_match_with_random_nets_and_doubles_is_zero_sum(document):
    match, out = check_sums(document)
    assert sum(out["totals"]) == 0 and barbu.zero_sum(match.rules)
    poker = [d for d in out["deals"] if d["contract"] == "chinese_poker"]
    assert len(poker) == 4
    for deal in poker:
        assert sum(deal["net"]) == 0 and sum(deal["score"]["total"]) == 0
        multiplier = match.rules.chinese_poker_multiplier
        assert deal["score"]["raw"] == [multiplier * n for n in deal["net"]]


@settings(max_examples=examples(40), deadline=None)
@given(matches(compulsory=False, form="house_zero"))
def test_house_values_whose_totals_add_up_to_zero_keep_every_complete_match_at_zero(document):
    match, out = check_sums(document)
    assert barbu.zero_sum(match.rules) and barbu.match_values(match.rules).total == 0
    assert sum(out["totals"]) == 0


@settings(max_examples=examples(30), deadline=None)
@given(matches(compulsory=False, form="five"))
def test_a_complete_five_player_salade_is_every_deal_of_each_declarer(document):
    match, out = check_sums(document)
    assert len(out["totals"]) == 5 and match.rules.seats == 5
    for seat in range(5):
        own = [d["contract"] for d in out["deals"] if d["score"]["declarer"] == seat]
        assert sorted(own) == sorted(c.value for c in barbu.match_contracts(match.rules))
    for deal in out["deals"]:
        if "tricks" in deal:
            assert sum(deal["tricks"]) == 10


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
