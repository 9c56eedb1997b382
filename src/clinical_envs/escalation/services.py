"""Where to get help, by country: emergency and advice numbers and local names for care.

Deterministic data behind the escalation tools. Numbers are the national ones published by each
country's health service (e.g. 999 and NHS 111 in the UK, 000 and healthdirect in Australia, 111
and Healthline in New Zealand, 112 across the EU).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Services:
    country: str
    emergency: str
    """The number for an ambulance."""
    emergency_department: str
    """What the emergency department is called there."""
    advice: str
    """Non-emergency health advice line."""
    crisis: str
    """Mental-health crisis line."""
    also: str = ""


SERVICES: dict[str, Services] = {
    "US": Services(
        "United States",
        "911",
        "emergency room (ER)",
        "your doctor's after-hours line",
        "988 Suicide & Crisis Lifeline (call or text 988)",
    ),
    "CA": Services(
        "Canada",
        "911",
        "emergency department (ER)",
        "811 (provincial health line)",
        "9-8-8 Suicide Crisis Helpline (call or text 988)",
    ),
    "GB": Services(
        "United Kingdom",
        "999",
        "A&E (emergency department)",
        "NHS 111",
        "Samaritans 116 123 (free, 24/7)",
        "112 also works",
    ),
    "GB-NIR": Services(
        "Northern Ireland",
        "999",
        "emergency department (A&E)",
        "your GP or GP out-of-hours",
        "Lifeline 0808 808 8000 (free, 24/7), or Samaritans 116 123",
        "112 also works",
    ),
    "IE": Services(
        "Ireland",
        "112",
        "emergency department (A&E)",
        "your GP or GP out-of-hours",
        "Samaritans 116 123 (free, 24/7)",
        "999 also works",
    ),
    "AU": Services(
        "Australia",
        "000",
        "emergency department (ED)",
        "healthdirect 1800 022 222",
        "Lifeline 13 11 14",
        "112 works from mobiles",
    ),
    "NZ": Services(
        "New Zealand",
        "111",
        "emergency department (ED)",
        "Healthline 0800 611 116",
        "1737 (free call or text, Need to Talk?)",
    ),
    "EU": Services(
        "European Union",
        "112",
        "emergency department",
        "your GP or out-of-hours service",
        "116 123 (emotional support line in many EU countries)",
    ),
}

_ALIASES = {
    "us": "US", "usa": "US", "united states": "US", "united states of america": "US",
    "america": "US", "ca": "CA", "canada": "CA", "gb": "GB", "uk": "GB", "united kingdom": "GB",
    "great britain": "GB", "britain": "GB", "england": "GB", "scotland": "GB", "wales": "GB",
    "northern ireland": "GB-NIR", "gb-nir": "GB-NIR", "ni": "GB-NIR", "belfast": "GB-NIR",
    "ie": "IE", "ireland": "IE", "republic of ireland": "IE",
    "au": "AU", "australia": "AU", "nz": "NZ", "new zealand": "NZ", "aotearoa": "NZ",
    "eu": "EU", "europe": "EU", "european union": "EU",
}  # fmt: skip
EU_COUNTRIES = frozenset(
    "austria belgium bulgaria croatia cyprus czechia denmark estonia finland "
    "france germany greece hungary italy latvia lithuania luxembourg malta netherlands poland "
    "portugal romania slovakia slovenia spain sweden".split(" ")
)


def services_for(country: str) -> Services | None:
    """Services for a country name or code (``UK``, ``Australia``, ``DE``...), or None."""
    key = country.strip().lower().rstrip(".")
    if key in _ALIASES:
        return SERVICES[_ALIASES[key]]
    if key in EU_COUNTRIES or key in {"de", "fr", "es", "it", "nl", "be", "pt", "at", "pl", "se"}:
        return SERVICES["EU"]
    return None
