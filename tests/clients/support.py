"""What the clients suite shares: the libraries it needs, its two kinds of models, the docs recipes."""

import importlib.util
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
LIBRARIES = (
    "beartype",
    "cattrs",
    "cloudpickle",
    "dill",
    "hypothesis",
    "joblib",
    "msgspec",
    "pandas",
    "pydantic",
    "rich",
    "typeguard",
)
KINDS = ("NamedTuple", "Record")


def missing_libraries() -> list[str]:
    """Return the names of the suite's libraries that are not installed."""
    return [name for name in LIBRARIES if importlib.util.find_spec(name) is None]


def load_models(kind: str):
    """
    Return tests/clients/models.py loaded as module ``models_<kind>``, whose
    classes have *kind* as their base; registered in sys.modules, so that
    pickle and the type-hint resolvers find it like any module.
    """
    name = f"models_{kind.lower()}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "models.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def libraries_page() -> str:
    """Return the text of the "Records and other libraries" page."""
    return (ROOT / "docs" / "pages" / "libraries.md").read_text()


RECIPE = re.compile(r"```python\n(# Recipe: (?P<name>[^\n]+)\n.*?)```", re.DOTALL)


def docs_recipe(name: str) -> dict:
    """
    Run the code block of the "Records and other libraries" page that starts
    with ``# Recipe: <name>`` and return its namespace: the tests use the
    recipe exactly as the page shows it.
    """
    for match in RECIPE.finditer(libraries_page()):
        if match["name"] == name:
            namespace = {"__name__": f"recipe_{name.replace(' ', '_')}"}
            exec(compile(match[1], f"<libraries.md recipe {name}>", "exec"), namespace)
            return namespace
    msg = f"no '# Recipe: {name}' block in docs/pages/libraries.md"
    raise LookupError(msg)
