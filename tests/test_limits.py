"""Request bodies over a page's limit are refused from their length, unread, with the limit."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from scorekeeper.forms import ImportForm
from scorekeeper.limits import BODY_MAX, DATA_BODY_MAX, IMPORT_BODY_MAX, body_limit
from scorekeeper.models import Match

pytestmark = pytest.mark.django_db


class Unreadable:
    """A body that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read

    def __iter__(self):
        raise AssertionError("the body was read")


def _post_unread(client, path: str, length: int, **extra):
    return client.generic(
        "POST",
        path,
        data=b"",
        content_type="multipart/form-data; boundary=BoUnDaRy",
        CONTENT_LENGTH=str(length),
        **{"wsgi.input": Unreadable(), **extra},
    )


def test_a_100_mb_upload_is_refused_before_it_is_read(auth_client):
    response = _post_unread(auth_client, "/matches/import/", 100 * 1024 * 1024)
    assert response.status_code == 413
    page = response.content.decode()
    assert "100.0\xa0MB" in page and "at most 2.0\xa0MB" in page
    assert "Nothing was stored" in page
    assert 'id="import-form"' in page  # the import page again, ready for another try
    assert Match.objects.count() == 0


def test_the_refusal_for_htmx_is_the_import_form(auth_client, htmx):
    response = _post_unread(
        auth_client, "/matches/import/", 3 * 1024 * 1024, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 413
    page = response.content.decode()
    assert page.lstrip().startswith('<form id="import-form"')


def test_a_paste_over_the_limit_says_the_limit(auth_client):
    text = "x" * (ImportForm.MAX_BYTES + 100 * 1024)
    response = auth_client.post("/matches/import/", {"text": text})
    assert response.status_code == 413
    assert "a match document may be at most" in response.content.decode()


def test_a_document_just_under_the_limit_is_read(auth_client):
    """The limit leaves room for the form around a document of the largest size."""
    text = (
        '{"format": "scorekeeper-match/1", "game": "biriba", "pad": "'
        + "x" * (ImportForm.MAX_BYTES - 200)
        + '"}'
    )
    response = auth_client.post("/matches/import/", {"text": text})
    assert response.status_code == 200  # read and refused by the rules, not by its size
    assert "a match document may be at most" not in response.content.decode()
    assert len(text.encode()) < IMPORT_BODY_MAX


def test_any_other_page_refuses_a_body_over_its_limit(auth_client, make_match):
    match = make_match("biriba")
    response = _post_unread(auth_client, f"/matches/{match.pk}/deals/new/", BODY_MAX + 1)
    assert response.status_code == 413
    assert "it accepts at most 256.0\xa0KB" in response.content.decode()
    assert match.deals.count() == 0


def test_a_file_of_all_an_account_s_data_has_a_limit_of_its_own(auth_client):
    """A file of every match an account owns is larger than one match document: its import
    page takes up to DataImportForm.MAX_BYTES, and refuses more before reading it."""
    path = reverse("account_data_import")
    assert body_limit(RequestFactory().post(path)) == DATA_BODY_MAX > IMPORT_BODY_MAX
    response = _post_unread(auth_client, path, DATA_BODY_MAX + 1)
    assert response.status_code == 413
    assert "at most 32.1\xa0MB" in response.content.decode()
    assert Match.objects.count() == 0
