"""The HTML report and its charts: `write_report(datasets, out)` writes `out/index.html`."""

import sys
import types

from simkit.report.build import write_report

__all__ = ["write_report"]


class _ReportPackage(types.ModuleType):
    """`simkit.report(datasets, out)` is the Python API's report call; importing this package makes
    `simkit.report` the package itself, so the package answers the same call."""

    def __call__(self, datasets, out="reports/latest"):
        from simkit import _report_api

        return _report_api(datasets, out)


sys.modules[__name__].__class__ = _ReportPackage
