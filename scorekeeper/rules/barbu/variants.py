"""The variants of Barbu: the one option every other module reads (its own module, so that
the contracts, which depend on the variant, and the options, which depend on the contracts,
import it without importing each other)."""

from __future__ import annotations

from enum import StrEnum


class Variant(StrEnum):
    CLASSIC = "classic"
    RAVAGE_CITY = "ravage_city"
    SALADE = "salade"
    KING = "king"

    @property
    def label(self) -> str:
        """The variant's English name (messages use the code ``value``)."""
        return _VARIANT_LABELS[self]


_VARIANT_LABELS = {
    Variant.CLASSIC: "Barbu",
    Variant.RAVAGE_CITY: "Ravage City",
    Variant.SALADE: "Salade",
    Variant.KING: "King",
}
