"""How many examples a property test draws (hypothesis), by profile.

- ``ci`` (``HYPOTHESIS_PROFILE=ci``, set by ``.ci/run``): every property as thorough as its
  test says, ``examples(n)`` being ``n`` (hypothesis's own 100 where a test says nothing);
- ``dev`` (the default: ``make test`` and ``make test-fast`` on a developer's machine): a
  quarter of that, never fewer than 10 (nor than the test's own count when it is smaller),
  so that the edit loop's answer comes in minutes; CI still draws them all.

The machines that run the tests are shared: a property is about results, never about speed
(speed is measured in benchmarks/), so no per-example deadline in either profile.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
DEV_SHARE = 4  # the dev profile draws a quarter of the examples

settings.register_profile("ci", deadline=None)
settings.register_profile("dev", deadline=None, max_examples=100 // DEV_SHARE)
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """The examples a property test written for ``n`` draws under the profile loaded."""
    if PROFILE == "ci":
        return n
    return max(min(n, 10), n // DEV_SHARE)
