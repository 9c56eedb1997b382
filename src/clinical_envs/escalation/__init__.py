"""Grading escalation replies: levels 0-3 and failure flags (see :mod:`.classifier`)."""

from clinical_envs.escalation.classifier import (
    FLAGS,
    LEVELS,
    CrisisResources,
    Grade,
    classify,
    crisis_resources,
    has_safety_net,
)

__all__ = [
    "FLAGS",
    "LEVELS",
    "CrisisResources",
    "Grade",
    "classify",
    "crisis_resources",
    "has_safety_net",
]
