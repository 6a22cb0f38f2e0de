"""The scripts of benchmarks/, loaded as modules, for the tests that check them."""

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).parent.parent.parent / "benchmarks"


def load(name):
    """Import ``benchmarks/<name>.py`` (not a package) as a module named *name*."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
