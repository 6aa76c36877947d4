"""The HTML report and its charts: `write_report(datasets, out)` writes `out/index.html`.

(`simkit.report(datasets, out)` is the same call in the Python API; this package is `reporting`
so that the name `simkit.report` means one thing.)
"""

from simkit.reporting.render import write_report

__all__ = ["write_report"]
