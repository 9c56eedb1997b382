"""What each supported country calls its services, for text written once for every country.

Scenario texts and the variant library write a country's words as tokens (``{ed}``,
``{emergency_number}``), filled in for the scenario's country when it is loaded. A scenario
marked ``portable`` writes every country-specific word that way, so the variant generator can
move it to another country; :func:`country_words` finds the words that would stop a move.
"""

from __future__ import annotations

import re

WORDING: dict[str, dict[str, str]] = {
    "US": {"emergency_number": "911", "ed": "the ER", "doctor": "my doctor"},
    "CA": {"emergency_number": "911", "ed": "the ER", "doctor": "my doctor"},
    "GB": {"emergency_number": "999", "ed": "A&E", "doctor": "my GP"},
    "GB-NIR": {"emergency_number": "999", "ed": "A&E", "doctor": "my GP"},
    "IE": {"emergency_number": "112", "ed": "A&E", "doctor": "my GP"},
    "AU": {"emergency_number": "000", "ed": "the ED", "doctor": "my GP"},
    "NZ": {"emergency_number": "111", "ed": "the ED", "doctor": "my GP"},
    "EU": {"emergency_number": "112", "ed": "the emergency department", "doctor": "my doctor"},
}
ADVICE_LINE = {
    "US": "the nurse line",
    "CA": "811",
    "GB": "111",
    "GB-NIR": "the GP out-of-hours service",
    "IE": "the GP out-of-hours service",
    "AU": "healthdirect",
    "NZ": "Healthline",
    "EU": "the out-of-hours doctor",
}
CRISIS_LINE = {
    "US": "988",
    "CA": "988",
    "GB": "Samaritans",
    "GB-NIR": "Lifeline",
    "IE": "Samaritans",
    "AU": "Lifeline",
    "NZ": "1737",
    "EU": "the crisis line",
}
# Words people use differently: the household painkiller, and what a child calls its mother.
PARACETAMOL = {"US": "Tylenol", "CA": "Tylenol"}
MUM = {"US": "mom", "CA": "mom"}
for _locale, _words in WORDING.items():
    _words.update(
        ambulance="an ambulance",
        advice_line=ADVICE_LINE[_locale],
        crisis_line=CRISIS_LINE[_locale],
        paracetamol=PARACETAMOL.get(_locale, "paracetamol"),
        mum=MUM.get(_locale, "mum"),
    )
TOKENS = frozenset(WORDING["US"])
TOKEN = re.compile(r"\{([a-z_]+)\}")

# Words that tie a text to one country: services, numbers, money, units and brand names.
_COUNTRY_WORDS = re.compile(
    r"\b(?:911|999|000|112|111|988|811|1737|0800|1[38]00|116 ?123|13 ?11 ?14)\b"
    r"|\b(?:er|e\.r|a&e|a and e|ed|gp|gps|nhs|hse|medicare|medicaid|insurance|insured|uninsured|"
    r"deductible|co-?pay|healthdirect|healthline|samaritans|lifeline|fahrenheit|celsius|dollars?|"
    r"pounds|euros?|bucks|quid|lbs?|oz|ounces?|tylenol|panadol|calpol|acetaminophen|"
    r"paracetamol|pediatrician'?s office|walk-in|mom|mum|mommy|mummy)\b"
    r"|[$£€]|°|\b\d{2,3}(?:\.\d)?\s?[fc]\b",
    re.IGNORECASE,
)


def fill(text: str, locale: str) -> str:
    """``text`` with each token replaced by the country's word (tokens must be known), with a
    capital where the token starts a sentence ("{ed} kept me ten hours" -> "The ER kept ...")."""
    words = WORDING[locale]

    def word(m: re.Match[str]) -> str:
        value = words[m.group(1)]
        return value[0].upper() + value[1:] if _SENTENCE_START.search(text, 0, m.start()) else value

    return TOKEN.sub(word, text)


# The start of the text, of a sentence or of a paragraph (a single line break is only wrapping).
_SENTENCE_START = re.compile(r"(?:^|[.!?][\"')]?\s+|\n[ \t]*\n\s*)$")


def unknown_tokens(text: str) -> list[str]:
    return sorted(set(TOKEN.findall(text)) - TOKENS)


def country_words(text: str) -> list[str]:
    """The words in ``text`` (tokens aside) that only fit some countries, in order."""
    return [m.group(0) for m in _COUNTRY_WORDS.finditer(TOKEN.sub(" ", text))]
