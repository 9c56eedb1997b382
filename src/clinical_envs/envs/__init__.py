"""verifiers adapters. Importing this package checks the verifiers version first."""

from clinical_envs.compat import require_classic_verifiers

require_classic_verifiers()
