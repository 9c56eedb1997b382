"""The environments on verifiers 0.4's v1 API (``verifiers.v1``: Taskset / Task / Toolset / Env).

Imports ``verifiers.v1`` only, never the classic API. verifiers 0.2 and 0.3 also ship an
older, incompatible ``verifiers.v1``, so importing this package checks that the installed
verifiers is one whose v1 API these adapters are written for (0.4 or later).
"""

from clinical_envs.compat import require_v1_verifiers

require_v1_verifiers()
