"""The polyroc report: one self-contained HTML page and a ``results.json`` of a classifier's scores.

:func:`build_report` runs every evaluation of polyroc on one or more models'
test scores (and tunes thresholds on validation scores when given) and returns
a :class:`Report`; :meth:`Report.write` writes ``report.html`` (images
embedded, no scripts, no network), ``results.json`` (the same numbers) and
the figures as PNG files, atomically. ``polyroc report`` and ``polyroc demo``
are its command-line faces. Needs jinja2 (a dependency of polyroc) and
matplotlib.

Modules: ``_inputs`` (checks), ``_analysis`` (the computation steps),
``_results`` (the JSON document), ``_readings`` (plain-words readings),
``_decisions`` and ``_decision_readings`` (the decisions section under a cost matrix),
``_figures`` (PNG figures), ``_document`` (assembly, HTML, writing). The
models of ``polyroc demo`` are built in ``polyroc.datasets._demo``.
"""

from polyroc.report._document import Report, build_report, is_report_directory

__all__ = ["Report", "build_report", "is_report_directory"]
