"""A mypy plugin that does nothing: every plugin case must fail under it."""

from mypy.plugin import Plugin


def plugin(version: str) -> type[Plugin]:
    return Plugin
