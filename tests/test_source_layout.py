"""The C/Python split is readable from the file list: each C part names its twin."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
C_PARTS = sorted((ROOT / "records" / "_c").glob("*.[ch]"))
OPENING_COMMENT = re.compile(r"\A/\*(.*?)\*/", re.DOTALL)


def opening_comment(path):
    """Return the comment a C part opens with, joined into one line."""
    found = OPENING_COMMENT.match(path.read_text(encoding="utf-8"))
    assert found, f"{path.name} does not open with a comment"
    return " ".join(line.strip(" *") for line in found.group(1).splitlines()).strip()


def test_parts_are_found():
    """The sources are where the build hook compiles them from."""
    assert "accelerator.c" in [path.name for path in C_PARTS]
    assert len(C_PARTS) > 5


@pytest.mark.parametrize("path", C_PARTS, ids=lambda path: path.name)
def test_part_names_its_python_twin_or_says_c_only(path):
    """records/_c/<name>.h mirrors records/_<name>.py, or its first sentence says "C only"."""
    comment = opening_comment(path)
    twin = ROOT / "records" / f"_{path.stem}.py"
    if twin.exists():
        assert f"records/_{path.stem}.py" in comment, comment
        assert "C only" not in comment.split(".")[0]
    else:
        assert comment.startswith("C only:"), comment


def test_module_lists_every_part():
    """The module's opening comment maps every part it includes, and includes each once."""
    source = (ROOT / "records" / "_c" / "accelerator.c").read_text(encoding="utf-8")
    comment = opening_comment(ROOT / "records" / "_c" / "accelerator.c")
    included = re.findall(r'^#include "([^"]+)"', source, re.MULTILINE)
    headers = sorted(path.name for path in C_PARTS if path.suffix == ".h")
    assert headers == sorted(included)
    assert len(included) == len(set(included))
    for name in headers:
        assert name in comment, name
