"""
The drop-in ``records.namedtuple`` and the ``RECORDS_NAMEDTUPLE`` opt-in.

What each measures, where users feel it:

* ``namedtuple_operations``: records.namedtuple against
  ``collections.namedtuple`` and ``cnamedtuple`` (the C namedtuple once
  proposed for CPython, where it is installed: it builds for 3.10 to 3.13),
  operation by operation, in one process;
* ``startup``: whole-process start-up of importing ``asyncio``, ``joblib``,
  ``rich`` and ``pandas`` (those installed) in fresh interpreters, with the
  opt-in off and on, interleaved, and how many named tuple classes each
  import builds;
* ``echo_server``: an asyncio echo server and its clients on 127.0.0.1, in a
  fresh interpreter, with the opt-in off and on: requests per second;
* ``pth_cost``: what the ``.pth`` file costs a start-up while the opt-in is off.
"""

from __future__ import annotations

import collections
import copy
import importlib.util
import os
import pickle
import subprocess
import sys
import time
import types

from . import harness

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: The modules whose import start-up is measured, where installed.
STARTUP_MODULES = ("asyncio", "joblib", "rich", "pandas")


def _factories() -> dict[str, Callable[..., Any]]:
    """Return the namedtuple factories to compare: collections', records', cnamedtuple's."""
    import records

    factories: dict[str, Callable[..., Any]] = {
        "collections.namedtuple": collections.namedtuple,
        "records.namedtuple": records.namedtuple,
    }
    if importlib.util.find_spec("cnamedtuple") is not None:
        import cnamedtuple  # type: ignore[import-not-found,import-untyped,unused-ignore]

        factories["cnamedtuple"] = cnamedtuple.namedtuple
    return factories


#: The operations of ``namedtuple_operations``: statement, loops per sample.
OPERATIONS = {
    "class creation, 5 fields": ("make('P', 'f0 f1 f2 f3 f4')", 200),
    "instance, positional": ("P(1, 2, 3, 4, 5)", 20_000),
    "instance, keyword": ("P(f0=1, f1=2, f2=3, f3=4, f4=5)", 20_000),
    "attribute access": ("; ".join(["p.f2"] * 10), 20_000),
    "attribute access, class made in a function": ("; ".join(["local.f2"] * 10), 20_000),
    "_make": ("P._make(values)", 20_000),
    "_replace": ("p._replace(f2=9)", 20_000),
    "_asdict": ("p._asdict()", 20_000),
    "copy.copy": ("copy(p)", 10_000),
    "pickle round trip": ("loads(dumps(p, 5))", 2_000),
    "pickle dump": ("dumps(p, 5)", 5_000),
    "pickle load": ("loads(pickled)", 5_000),
}

#: Statements that time ten operations, divided back.
_TIMES_TEN = ("attribute access", "attribute access, class made in a function")

# Classes pickled are registered here, so that pickle finds them by name.
_registry = types.ModuleType(__name__ + "._registry")
sys.modules[_registry.__name__] = _registry


def _namespace(name: str, make: Callable[..., Any]) -> dict[str, Any]:
    cls = make(f"Dropin{len(vars(_registry))}", "f0 f1 f2 f3 f4")
    cls.__module__ = _registry.__name__
    setattr(_registry, cls.__name__, cls)

    def in_a_function() -> Any:
        return make("Local", "f0 f1 f2 f3 f4")

    values = (1, 2, 3, 4, 5)
    return {
        "make": make,
        "P": cls,
        "p": cls(*values),
        "local": in_a_function()(*values),
        "values": values,
        "copy": copy.copy,
        "loads": pickle.loads,
        "dumps": pickle.dumps,
        "pickled": pickle.dumps(cls(*values), 5),
    }


def namedtuple_operations(
    rounds: int, progress: harness.Progress
) -> dict[str, dict[str, list[float]]]:
    """Seconds per operation, by operation then factory, *rounds* samples each."""
    factories = _factories()
    namespaces = {name: _namespace(name, make) for name, make in factories.items()}
    table: dict[str, dict[str, list[float]]] = {operation: {} for operation in OPERATIONS}
    for index in range(1, rounds + 1):
        progress.round("the drop-in namedtuple", index, rounds)
        for name in factories:
            for operation, (statement, number) in OPERATIONS.items():
                seconds = harness.time_statement(statement, namespaces[name], number)
                if operation in _TIMES_TEN:
                    seconds /= 10
                table[operation].setdefault(name, []).append(seconds)
            progress.step(name)
    return table


_COUNTING = """
import collections
made = 0
original = collections.namedtuple
def counting(*args, **kwargs):
    global made
    made += 1
    return original(*args, **kwargs)
collections.namedtuple = counting
import {module}
print(made)
"""


def _classes_built(module: str) -> int:
    """How many named tuple classes ``import module`` builds in a fresh interpreter."""
    output = subprocess.run(
        [sys.executable, "-c", _COUNTING.format(module=module)],
        env=harness.process_environment(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(output.split()[-1])


def startup(rounds: int, progress: harness.Progress) -> dict[str, Any]:
    """
    Whole-process seconds of ``python -c "import <module>"``, opt-in off and
    on, *rounds* interleaved samples each, and the classes each import builds.
    """
    modules = [m for m in STARTUP_MODULES if importlib.util.find_spec(m) is not None]
    result: dict[str, Any] = {"classes built": {}, "off": {}, "on": {}, "empty": {}}
    for module in modules:  # once, to warm the disk cache and byte-compile
        harness.process_seconds(f"import {module}", opt_in=True)
        result["classes built"][module] = _classes_built(module)
    for index in range(1, rounds + 1):
        progress.round("start-up with the opt-in off and on", index, rounds)
        for opt_in, key in ((False, "off"), (True, "on")):
            result["empty"].setdefault(key, []).append(
                harness.process_seconds("pass", opt_in=opt_in)
            )
            for module in modules:
                seconds = harness.process_seconds(f"import {module}", opt_in=opt_in)
                result[key].setdefault(module, []).append(seconds)
        progress.step()
    return result


_ECHO = """
import asyncio, collections, records, sys, time
CLIENTS, REQUESTS = {clients}, {requests}
async def handle(reader, writer):
    while line := await reader.readline():
        writer.write(line)
        await writer.drain()
    writer.close()
async def client(port):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for _ in range(REQUESTS):
        writer.write(b"ping\\n")
        await writer.drain()
        await reader.readline()
    writer.close()
    await writer.wait_closed()
async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    started = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(client(port) for _ in range(CLIENTS))), 120)
    elapsed = time.perf_counter() - started
    server.close()
    await server.wait_closed()
    print(CLIENTS * REQUESTS / elapsed, collections.namedtuple is records.namedtuple)
asyncio.run(main())
"""


def echo_server(
    rounds: int, progress: harness.Progress, *, clients: int = 20, requests: int = 500
) -> dict[str, Any]:
    """
    Measure requests per second of an asyncio echo server on 127.0.0.1 serving
    *clients* connections of *requests* lines each, all in one fresh
    interpreter, opt-in off and on, *rounds* interleaved samples each.
    """
    code = _ECHO.format(clients=clients, requests=requests)
    result: dict[str, Any] = {"clients": clients, "requests": requests, "off": [], "on": []}
    for index in range(1, rounds + 1):
        progress.round("asyncio echo server, opt-in off and on", index, rounds)
        for opt_in, key in ((False, "off"), (True, "on")):
            output = subprocess.run(
                [sys.executable, "-c", code],
                env=harness.process_environment(opt_in=opt_in),
                capture_output=True,
                text=True,
                check=True,
                timeout=180,
            ).stdout.split()
            if output[1] != str(opt_in):  # the opt-in is what the environment says
                msg = f"the opt-in was {output[1]} where it should be {opt_in}"
                raise RuntimeError(msg)
            result[key].append(float(output[0]))
        progress.step()
    return result


def _site_directories() -> list[Any]:
    import site
    from pathlib import Path

    return [Path(d) for d in (*site.getsitepackages(), site.getusersitepackages())]


def _pth_path() -> Any:
    """Return where ``records_namedtuple.pth`` is: in site-packages, else in the package."""
    from pathlib import Path

    import records

    package = Path(records.__file__).parent
    for directory in (*_site_directories(), package.parent, package):
        if (directory / "records_namedtuple.pth").is_file():
            return directory / "records_namedtuple.pth"
    msg = "records_namedtuple.pth is not installed here"
    raise FileNotFoundError(msg)


def opt_in_installed() -> bool:
    """Whether ``records_namedtuple.pth`` is installed, so that the opt-in can be measured."""
    return any((d / "records_namedtuple.pth").is_file() for d in _site_directories())


def pth_cost(number: int = 100_000) -> dict[str, float]:
    """
    Seconds that ``records_namedtuple.pth``'s line costs a start-up while
    the opt-in is off (as ``site`` runs it), against a whole ``python -c pass``.
    """
    line = _pth_path().read_text()
    code = compile(line, "records_namedtuple.pth", "exec")
    saved = os.environ.pop("RECORDS_NAMEDTUPLE", None)
    try:
        started = time.perf_counter()
        for _ in range(number):
            exec(code, {})  # fixed text of this package: the .pth line
        per_start = (time.perf_counter() - started) / number
    finally:
        if saved is not None:
            os.environ["RECORDS_NAMEDTUPLE"] = saved
    return {"pth line": per_start, "python -c pass": harness.process_seconds("pass", opt_in=False)}
