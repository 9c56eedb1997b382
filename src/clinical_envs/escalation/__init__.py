"""Grading escalation replies: levels 0-3 and failure flags (see :mod:`.classifier`)."""

from clinical_envs.escalation.classifier import FLAGS, LEVELS, Grade, classify

__all__ = ["FLAGS", "LEVELS", "Grade", "classify"]
