"""Every refusal of a random Barbu match of issue 12's forms (Chinese Poker, house values,
five players), mutated one value at a time inside its deals, points where its words say: the
oracle of tests/rules/test_places.py, on the new forms."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.profiles import examples
from tests.rules.test_barbu_properties import matches
from tests.rules.test_places import checked, mutated


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    doc=st.sampled_from(["chinese_poker", "house", "five"]).flatmap(
        lambda form: matches(compulsory=True, form=form)
    ),
)
def test_mutated_random_matches_of_the_new_forms_point_where_their_words_say(data, doc):
    error = checked(data.draw(mutated(doc)))
    if error is not None:
        assert error.place.deal is not None
