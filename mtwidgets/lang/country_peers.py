"""Countries that may stand in for one another in a text (the country MRs of the text tasks).

A text about a country says things of it a replacement must share: what it exports, its
climate, its currency and institutions, its customs, its size. Regions are too wide for
that (the audits found coffee from Pakistan, railways in Iceland, the Day of the Dead in
Colombia, curling in Cuba), while neighbours alike in climate, economy, size and customs
swap safely (Norway and Sweden, Kenya and Tanzania, Argentina and Chile). So a country is
replaced only by a *peer*: another of its group below. A country in no group has no peer
and is never replaced (China, India, Pakistan, Brazil, Mexico, Russia, Ukraine, Egypt,
South Africa, Turkey, Israel, Iceland, Singapore ...: each too large, too particular or too
singular in its facts for a stand-in to keep what a text says of it true).

Groups are of ISO 3166-1 alpha-2 codes; each language maps its country names to codes.
"""

from __future__ import annotations

from functools import cache

__all__ = ["PEER_GROUPS", "peers"]

PEER_GROUPS: dict[str, frozenset[str]] = {
    "nordic": frozenset("DK NO SE FI".split()),
    "western europe": frozenset("FR DE NL BE AT CH".split()),
    "southern europe": frozenset("ES PT IT GR".split()),
    "british isles": frozenset("GB IE".split()),
    "central europe": frozenset("PL CZ HU SK SI HR".split()),
    "baltic": frozenset("EE LV LT".split()),
    "lower danube": frozenset("RO BG".split()),
    "east asia": frozenset("JP KR".split()),
    "south-east asia": frozenset("TH VN MY ID PH".split()),
    "east africa": frozenset("KE TZ UG".split()),
    "anglophone west africa": frozenset("GH NG".split()),
    "maghreb": frozenset("MA TN DZ".split()),
    "southern cone": frozenset("AR CL UY".split()),
    "andes": frozenset("CO PE EC".split()),
    "north america": frozenset("US CA".split()),
    "oceania": frozenset("AU NZ".split()),
    "gulf": frozenset("AE QA OM".split()),
}


@cache
def _group_of() -> dict[str, str]:
    return {code: name for name, codes in PEER_GROUPS.items() for code in codes}


def peers(code: str) -> frozenset[str]:
    """The codes of the countries that may replace ``code`` (empty: none may)."""
    group = _group_of().get(code.upper())
    return PEER_GROUPS[group] - {code.upper()} if group else frozenset()
