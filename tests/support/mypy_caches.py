"""
Fresh mypy caches that hold the standard library already.

A cold mypy run spends most of its time on the standard library's stubs
(``builtins``, ``typing`` and what they import), which are the same for every
test that type-checks. ``MypyCaches.fresh`` gives a new cache folder holding
what mypy wrote, under the same configuration, for a module that imports
only the standard library modules records' stub uses: made once per
configuration per pytest session, copied for each use. records' stub and the
test's own modules are not in it, so mypy reads them from scratch as in a
cold run; the standard library comes from the cache, as mypy itself would
take it from a cache it wrote.
"""

from __future__ import annotations

import shutil
from pathlib import Path

#: The standard library modules that records' stub (records/*.pyi) imports.
STANDARD_LIBRARY = "import collections, collections.abc, typing, typing_extensions\n"


class MypyCaches:
    """Fresh caches under *directory*, by mypy configuration."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.seeds: dict[str, Path] = {}
        self.made = 0

    def fresh(self, config: Path) -> Path:
        """A new cache folder for runs with the configuration file *config*."""
        settings = config.read_text()
        seed = self.seeds.get(settings)
        if seed is None:
            seed = self.seeds[settings] = self._seed(config.name, settings)
        self.made += 1
        cache = self.directory / f"cache-{self.made}"
        shutil.copytree(seed, cache)
        return cache

    def _seed(self, name: str, settings: str) -> Path:
        """Make the cache of the standard library under the configuration *settings*."""
        from mypy import api

        work = self.directory / f"seed-{len(self.seeds)}"
        work.mkdir()
        (work / name).write_text(settings)
        module = work / "standard_library.py"
        module.write_text(STANDARD_LIBRARY)
        seed = work / "cache"
        stdout, stderr, status = api.run(
            ["--config-file", str(work / name), "--cache-dir", str(seed), str(module)]
        )
        assert status == 0, stdout + stderr
        return seed
