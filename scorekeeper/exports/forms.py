"""The upload of an account's data file (``scorekeeper-data/1``)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from scorekeeper.inputs import json_problem


class DataImportForm(forms.Form):
    file = forms.FileField(
        label=_("Data file (.json)"),
        help_text=_("The file “Download all my data” wrote."),
    )

    #: The largest data file read: an account of a few thousand matches.
    MAX_BYTES = 32 * 1024 * 1024

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if not upload:
            return data
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s; a data file may be at most %(limit)s."),
                params={
                    "size": filesizeformat(upload.size),
                    "limit": filesizeformat(self.MAX_BYTES),
                },
                code="data_too_large",
            )
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text."), code="not_utf8") from None
        try:
            data["document"] = json.loads(text)
        except json.JSONDecodeError as e:
            raise forms.ValidationError(json_problem(e), code="not_json") from None
        except (ValueError, RecursionError):
            raise forms.ValidationError(
                _("This JSON cannot be read: it is nested too deeply or holds a number too long."),
                code="not_json",
            ) from None
        return data
