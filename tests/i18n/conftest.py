import pytest
from django.utils import translation

from tests.i18n.catalogues import compile_catalogues


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """The catalogues compiled into a folder of the tests' own."""
    return compile_catalogues(tmp_path_factory.mktemp("locale"))


@pytest.fixture
def speaking(settings, compiled):
    """The site with its catalogues compiled, as after ``make install``."""
    settings.LOCALE_PATHS = [compiled]
    return compiled


@pytest.fixture(autouse=True)
def _english_after():
    """A request leaves its language active in the thread: the next test starts in English."""
    yield
    translation.activate("en")
