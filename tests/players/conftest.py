"""The browser tests of a player's page use the browser tests' Chromium (tests/browser/)."""

from tests.browser.conftest import chromium  # noqa: F401 (the fixture)
