"""
Hatch build hook: compile the optional C accelerator, ``records/_c/accelerator.c``
(with the ``records/_c/*.h`` parts it includes).

Wheels for CPython 3.10 to 3.15 get ``records/_accelerator_c*.so``; editable
installs get it built in place. Where compiling fails (no compiler, no Python
headers), the build goes on with the pure-Python package and says so once,
unless ``RECORDS_REQUIRE_ACCELERATOR`` is set, as in CI, where it fails and
warnings are errors. ``RECORDS_PURE_PYTHON_BUILD=1`` skips the compiler.

Not part of the installed package (see ``pyproject.toml``).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = "records/_c/accelerator.c"
SUPPORTED = ((3, 10), (3, 11), (3, 12), (3, 13), (3, 14), (3, 15))
# Warnings that the CPython headers' own struct initialisers trigger.
FLAGS = ["-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-missing-field-initializers"]


class SpeedupsBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Build ``records._accelerator_c`` into the wheel, or in place for editable installs."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile the extension and mark the wheel as platform-specific."""
        if self.target_name != "wheel":
            return
        required = bool(os.environ.get("RECORDS_REQUIRE_ACCELERATOR"))
        if os.environ.get("RECORDS_PURE_PYTHON_BUILD"):
            self.app.display_info("records: RECORDS_PURE_PYTHON_BUILD is set: pure Python")
            return
        if sys.implementation.name != "cpython" or sys.version_info[:2] not in SUPPORTED:
            self.app.display_info("records: no C accelerator for this Python: pure Python")
            return
        try:
            built = self._compile(in_place=version == "editable", strict=required)
        except Exception as error:
            if required:
                raise
            self.app.display_warning(
                f"records: the C accelerator did not build ({error}); "
                "installing the pure-Python package, which behaves the same"
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":
            build_data["force_include"][str(built)] = f"records/{built.name}"

    def _compile(self, *, in_place: bool, strict: bool) -> Path:
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext

        flags = [*FLAGS, "-Werror"] if strict else FLAGS
        # The parts the source includes: a change to one rebuilds the extension.
        parts = sorted(
            str(path.relative_to(self.root))
            for path in Path(self.root, "records", "_c").glob("*.h")
        )
        extension = Extension(
            "records._accelerator_c", [SOURCE], depends=parts, extra_compile_args=flags
        )
        distribution = Distribution({"name": "records-accelerator", "ext_modules": [extension]})
        command = build_ext(distribution)
        work = tempfile.mkdtemp(prefix="records-build-")
        command.build_temp = os.path.join(work, "temp")
        command.build_lib = os.path.join(work, "lib")
        command.inplace = in_place
        cwd = os.getcwd()
        os.chdir(self.root)
        try:
            command.ensure_finalized()
            command.run()
            return Path(self.root, command.get_ext_fullpath("records._accelerator_c")).resolve()
        finally:
            os.chdir(cwd)
