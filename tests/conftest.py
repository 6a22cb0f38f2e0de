"""Shared test configuration."""

import os
import sys

from hypothesis import settings

collect_ignore_glob = []
if sys.version_info < (3, 12):
    collect_ignore_glob.append("*_312.py")  # PEP 695 syntax

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
