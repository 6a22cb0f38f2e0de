"""
Charts from benchmark results (matplotlib, an optional extra: ``[plot]``).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: The bars of the key-ratio chart: a label, and where its ratios are.
KEY_ROWS: tuple[tuple[str, Callable[[dict[str, Any]], dict[str, float]]], ...] = (
    ("class creation", lambda r: r["class creation"]["5 fields"]["ratio"]),
    ("start-up", lambda r: r["start-up"]["ratio"]),
    ("instance creation", lambda r: r["operations"]["instance, positional"]["ratio"]),
    ("attribute access", lambda r: r["operations"]["attribute access"]["ratio"]),
    ("_replace", lambda r: r["operations"]["_replace"]["ratio"]),
    ("copy.copy", lambda r: r["operations"]["copy.copy"]["ratio"]),
    ("pickle round trip", lambda r: r["operations"]["pickle round trip"]["ratio"]),
)


#: The file formats a chart can be written in.
FORMATS = (".svg", ".png", ".pdf")


def available() -> bool:
    """Whether matplotlib can be imported, so that charts can be drawn."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def _pyplot() -> Any:
    import matplotlib as mpl  # type: ignore[import-not-found,unused-ignore]

    mpl.use("Agg")  # matplotlib is untyped where its stubs are absent
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    return plt


def key_chart(results: dict[str, Any], path: str) -> None:
    """Draw the key ratios of *results* (a quick or a full run) to *path*; needs matplotlib."""
    plt = _pyplot()
    figure = _key_figure(plt, results)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _key_figure(plt: Any, results: dict[str, Any]) -> Any:
    from .report import run_label

    version = run_label(results)
    peers = list(results["meta"]["peers"])
    figure, axes = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / len(peers)
    for index, peer in enumerate(peers):
        values = [row(results).get(peer, 0.0) for _, row in KEY_ROWS]
        positions = [k + index * width for k in range(len(KEY_ROWS))]
        axes.bar(positions, values, width, label=peer)
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xticks([k + width * (len(peers) - 1) / 2 for k in range(len(KEY_ROWS))])
    axes.set_xticklabels([label for label, _ in KEY_ROWS])
    axes.set_yscale("log")
    axes.set_ylabel("time relative to collections.namedtuple (log)")
    axes.set_title(f"records and its peers, Python {version} (lower is faster)")
    axes.legend(fontsize="small", ncol=2)
    figure.tight_layout()
    return figure


def charts(results: dict[str, Any], output: str) -> list[str]:
    """Write the SVG charts of *results* in *output*; return their paths (none: no matplotlib)."""
    if not available():
        return []
    from .report import run_label

    plt = _pyplot()
    version = run_label(results)
    peers = list(results["meta"]["peers"])
    figure = _key_figure(plt, results)
    written = _save(figure, output, f"key-ratios-{version}")
    plt.close(figure)

    if "scaling" in results:
        scaling = results["scaling"]
        for kind, unit, scale in (("class creation", "µs", 1e6), ("instance creation", "ns", 1e9)):
            figure, axes = plt.subplots(figsize=(9, 4.5))
            for peer in peers:
                if peer in scaling[kind]:
                    values = [v * scale for v in scaling[kind][peer]]
                    axes.plot(scaling["sizes"], values, marker="o", label=peer)
            axes.set_xlabel("number of fields")
            axes.set_ylabel(f"{kind} time ({unit}, log)")
            axes.set_yscale("log")
            axes.set_title(f"{kind.capitalize()} by number of fields, Python {version}")
            axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
            axes.grid(True, which="both", alpha=0.3)
            figure.tight_layout()
            written += _save(figure, output, f"scaling-{kind.replace(' ', '-')}-{version}")
            plt.close(figure)
    return written


def _save(figure: Any, output: str, stem: str) -> list[str]:
    os.makedirs(output, exist_ok=True)
    path = os.path.join(output, f"{stem}.svg")
    figure.savefig(path)
    return [path]
