"""Building the escalation mix: interleaving corpora by proportion, and its metrics.

Both live in :mod:`clinical_envs.dialogue` (the v1 adapter needs them without verifiers).
"""

from __future__ import annotations

from clinical_envs.dialogue import MIX_CORPORA, interleave, mix_metrics

__all__ = ["MIX_CORPORA", "interleave", "mix_metrics"]
