"""Grading escalation replies: levels 0-3 and failure flags (see :mod:`.classifier`)."""

from clinical_envs.escalation.classifier import (
    FLAGS,
    LEVELS,
    LOCALES,
    Grade,
    check_locale,
    classify,
    has_safety_net,
    parse,
)
from clinical_envs.escalation.crisis import CrisisResources, crisis_resources

__all__ = [
    "FLAGS",
    "LEVELS",
    "LOCALES",
    "CrisisResources",
    "Grade",
    "check_locale",
    "classify",
    "crisis_resources",
    "has_safety_net",
    "parse",
]
