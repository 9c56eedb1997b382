"""Clinical reinforcement-learning environments for the ``verifiers`` library.

The core is framework-light: parsing, catalogs, datasets and scoring are plain Python that can
be imported and tested without ``verifiers``; only :mod:`clinical_envs.envs` adapts them to it.
"""

__version__ = "0.1.0"
