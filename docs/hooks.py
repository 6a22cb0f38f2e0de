"""MkDocs hook: publish the benchmark charts from benchmarks/results with the site."""

from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).parent.parent


def on_files(files, config):
    """Add every chart in benchmarks/results to the site, at the same path."""
    for chart in sorted((ROOT / "benchmarks" / "results").glob("*.svg")):
        files.append(
            File(
                f"benchmarks/results/{chart.name}",
                src_dir=str(ROOT),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files
