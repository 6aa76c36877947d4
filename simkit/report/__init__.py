"""The HTML report and its charts: `write_report(datasets, out)` writes `out/index.html`."""

from simkit.report.build import write_report

__all__ = ["write_report"]
