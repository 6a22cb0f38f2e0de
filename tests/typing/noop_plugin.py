"""
A mypy plugin that builds nothing: every plugin case must fail under it.

It keeps one step of records.mypy, the first: it takes PEP 681's
``dataclass_transform`` off ``Record``, so that records are the plain classes
the plugin starts from, not mypy's own dataclass view of them (which is what
mypy without any plugin gives).
"""

from mypy.plugin import Plugin

from records.mypy import RecordsPlugin


class BuildsNothing(Plugin):
    get_class_decorator_hook = RecordsPlugin.get_class_decorator_hook


def plugin(version: str) -> type[Plugin]:
    return BuildsNothing
