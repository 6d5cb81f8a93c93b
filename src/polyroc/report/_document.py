"""Assemble a report: run the analysis steps, draw the figures, render HTML, write a directory."""

from __future__ import annotations

import base64
import json
import numbers
import os
import re
import struct
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc._results import bounds_text, html_table, html_view, number_text
from polyroc.evaluation._plan import CiChoice
from polyroc.intervals._shared_draws import shared_draws
from polyroc.io import OutputDirectory, directory_refusal
from polyroc.report._analysis import ModelAnalysis, analysis_steps
from polyroc.report._figures import SCALE, ReportFigure, comparison_figures, model_figures
from polyroc.report._inputs import check_report_inputs
from polyroc.report._readings import (
    comparison_reading,
    data_reading,
    model_readings,
    omnibus_reading,
    paired_tests_reading,
    verdicts,
)
from polyroc.report._results import results_document
from polyroc.report._wording import format_number, format_p_value

__all__ = ["Report", "build_report", "is_report_directory"]

REPORT_PATHS = ("report.html", "results.json", "figures/")  # what a report writes into its directory

#: Readable names of the identifiers the report's tables show (metrics, rule columns), used by every header.
READABLE_NAMES = {
    "accuracy": "Accuracy",
    "balanced_accuracy": "Balanced accuracy",
    "f1_macro": "Macro-F1",
    "cohen_kappa": "Cohen's kappa",
    "matthews_corrcoef": "MCC",
    "roc_auc_ovr_macro": "ROC AUC, OvR macro",
    "roc_auc_ovr_weighted": "ROC AUC, OvR weighted",
    "roc_auc_ovr_micro": "ROC AUC, OvR micro",
    "roc_auc_ovo_macro": "ROC AUC, OvO (Hand & Till)",
    "roc_auc_per_class": "ROC AUC, class vs rest",
    "log_loss": "Log loss",
    "ece_top_label": "ECE, top-label",
    "ece_classwise": "ECE, classwise",
    "brier_score": "Brier score",
    "top_2_accuracy": "Top-2 accuracy",
    "f1_micro": "Micro-F1",
    "f1_weighted": "Weighted F1",
    "precision_macro": "Macro precision",
    "recall_macro": "Macro recall",
    "tuned": "tuned τ*",
    "frechet": "Fréchet",
    "coverage": "coverage",
    "singleton": "singleton share",
    "avg_set_size": "average set size",
}
OVERVIEW_METRICS = ("accuracy", "balanced_accuracy", "f1_macro", "matthews_corrcoef", "roc_auc_ovr_macro", "log_loss")
RULE_COLUMNS = ("argmax", "tuned", "frechet", "coverage", "singleton", "avg_set_size")


def _overview_methods(results):
    """Column name of the overview -> how its intervals are made (from the first model that has them)."""
    methods = {}
    for model in results["models"].values():
        intervals = (model.get("metrics") or {}).get("intervals", {})
        for key in OVERVIEW_METRICS:
            if key in intervals and READABLE_NAMES[key] not in methods:
                methods[READABLE_NAMES[key]] = _method_text(intervals[key])
    n_boot = results["settings"]["n_boot"]
    methods.setdefault("ROC-DMF D and Gini AUC", f"stratified percentile bootstrap, B = {n_boot}")
    return methods


def _method_text(record):
    """An interval record's method, with its resamples for a bootstrap ("—" without a record)."""
    if record is None:
        return "—"
    settings = record["settings"]
    n_boot = settings.get("n_boot")
    return settings["interval_method"] + (f", B = {n_boot}" if n_boot else "")


def _png_size(png):
    """(width, height) of a PNG from its IHDR chunk."""
    return struct.unpack(">II", png[16:24])


def _model_id(index, name):
    """A unique, URL-safe id of the model at ``index``: ``m1-plain-logistic``."""
    return f"m{index + 1}-" + (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "model")


def _figure_item(figure, prefix):
    """A figure for the page: shown at 1/SCALE of its pixel size (its CSS size), so it is sharp on HiDPI screens."""
    width, height = _png_size(figure.png)
    return {
        "id": f"{prefix}-{figure.key}",
        "caption": figure.caption,
        "width": round(width / SCALE),
        "height": round(height / SCALE),
        "data": base64.b64encode(figure.png).decode("ascii"),
    }


def _format_number(value, digits=3):
    return format_number(value, digits, missing="—")


def _format_percent(share):
    return f"{100 * share:g}%"


def _format_share(share):
    """A share as a percentage of 3 significant digits (``0.0467%``, ``33.3%``): never 0 for a non-zero share."""
    if not np.isfinite(share):
        return _format_number(share)
    if share == 0:
        return "0%"
    return "<0.001%" if share < 1e-5 else f"{100 * share:#.3g}".rstrip(".") + "%"


def _readable(key):
    """The readable name of a table identifier (itself when it has none)."""
    return READABLE_NAMES.get(key, key)


def _format_seed(random_state):
    """``seed 0``; an unseeded report (or one seeded by a generator) says so."""
    if random_state is None:
        return "no fixed seed"
    return f"seed {random_state}" if isinstance(random_state, int) else "seeded by a numpy Generator"


def _format_support(support):
    """A class support: a count, or a sum of sample weights (``12``, ``3.25``)."""
    return f"{support:.6g}"


def is_report_directory(path: str | os.PathLike) -> bool:
    """True if :meth:`Report.write` may write into the existing directory ``path``.

    That is an empty directory, or one holding an earlier report whose files
    (``report.html``, ``results.json``, ``figures/``) are all listed, unchanged,
    in the directory's manifest of the files polyroc wrote (other files may sit
    beside them and are left alone).

    Parameters
    ----------
    path : str or os.PathLike
        The directory to check.

    Returns
    -------
    bool
        True for an empty directory or one holding an unchanged earlier
        report; False otherwise, including when ``path`` does not exist or is
        not a directory (:meth:`Report.write` then creates it, or refuses).

    Raises
    ------
    ValueError
        The directory's manifest is damaged.
    TypeError
        ``path`` is not a str or os.PathLike.

    See Also
    --------
    Report.write : Writes a report into such a directory.
    polyroc.io.directory_refusal : Why a directory would be refused.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     empty = is_report_directory(tmp)
    ...     _ = (pathlib.Path(tmp) / "report.html").write_text("mine")
    ...     empty, is_report_directory(tmp)
    (True, False)
    """
    path = Path(path)
    return path.is_dir() and directory_refusal(path, reserved=REPORT_PATHS) is None


@dataclass(frozen=True, eq=False)
class Report:
    """A finished report: its numbers (``results``), figures and readings.

    Attributes
    ----------
    results : dict
        Every number of the report, JSON-ready (written as ``results.json``).
    figures : dict
        Model name -> list of :class:`~polyroc.report._figures.ReportFigure`
        (PNG bytes and caption) of that model's section.
    shared_figures : list of ReportFigure
        Figures of all models together (the ROC-DMF curves).
    readings : dict
        Plain-words readings: ``"data"``, ``"comparison"``, ``"paired_tests"``,
        ``"omnibus"`` (the paired tests' first line; None for one model) and,
        per model name, one per section.
    analyses : list of ModelAnalysis
        The library result objects behind the numbers, one per model.

    See Also
    --------
    build_report : Makes a Report.
    polyroc.evaluate : The metrics and intervals of its first section.
    polyroc.io.OutputDirectory : How :meth:`write` writes its directory.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> y = np.repeat(["a", "b", "c"], 10)
    >>> scores = np.full((30, 3), 0.2) + 0.4 * np.eye(3)[np.arange(30) % 3]
    >>> report = build_report(y, {"demo": scores}, n_boot=20, random_state=0)
    >>> sorted(name for name in report.files() if not name.startswith("figures/"))
    ['report.html', 'results.json']
    >>> report.to_html().startswith("<!DOCTYPE html>")
    True
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = report.write(pathlib.Path(tmp) / "report")
    ...     sorted(path.name for path in out.iterdir())
    ['.polyroc-manifest.json', 'figures', 'report.html', 'results.json']
    """

    results: dict[str, Any]
    figures: dict[str, list[ReportFigure]]
    shared_figures: list[ReportFigure]
    readings: dict[str, Any]
    analyses: list[ModelAnalysis]

    def to_html(self) -> str:
        """The report as one self-contained HTML page (images embedded, no scripts).

        Returns
        -------
        str
            The page: every figure embedded as a base64 PNG, no script,
            nothing loaded from the network.

        See Also
        --------
        Report.files : The page with ``results.json`` and the figures.
        Report.write : Write them into a directory.

        Examples
        --------
        >>> import numpy as np
        >>> y = np.repeat(["a", "b"], 5)
        >>> scores = np.full((10, 2), 0.3) + 0.4 * np.eye(2)[np.arange(10) % 2]
        >>> report = build_report(y, scores, n_boot=1, random_state=0)
        >>> html = report.to_html()
        >>> html.startswith("<!DOCTYPE html>"), "<script" in html, html.count("data:image/png;base64,")
        (True, False, 7)
        """
        from jinja2 import (
            Environment,
            PackageLoader,
            StrictUndefined,
            select_autoescape,
        )

        environment = Environment(
            loader=PackageLoader("polyroc.report", "templates"),
            autoescape=select_autoescape(["html", "j2"]),
            undefined=StrictUndefined,
        )
        template = environment.get_template("report.html.j2")
        models = [
            {
                "name": name,
                "id": _model_id(index, name),
                "r": model,
                "readings": self.readings[name],
                "figures": {f.key: _figure_item(f, _model_id(index, name)) for f in self.figures[name]},
            }
            for index, (name, model) in enumerate(self.results["models"].items())
        ]
        return template.render(
            r=self.results,
            models=models,
            readings=self.readings,
            verdicts=verdicts(self.results),
            num=_format_number,
            pvalue=format_p_value,
            percent=_format_percent,
            seed=_format_seed,
            support=_format_support,
            shared_figures=[_figure_item(f, "all") for f in self.shared_figures],
            readable=_readable,
            share=_format_share,
            overview_metrics=OVERVIEW_METRICS,
            overview_methods=_overview_methods(self.results),
            method=_method_text,
            rule_columns=RULE_COLUMNS,
        )

    def files(self) -> dict[str, bytes]:
        """The report's files as ``{relative path: bytes}``: the figures, ``results.json``, ``report.html``.

        Returns
        -------
        dict of str to bytes
            Relative path -> content, in writing order: the figures
            (``figures/*.png``), then ``results.json``, then ``report.html``.

        See Also
        --------
        Report.write : Write these files into a directory, atomically.
        Report.to_html : The page alone.

        Examples
        --------
        >>> import numpy as np
        >>> y = np.repeat(["a", "b"], 5)
        >>> scores = np.full((10, 2), 0.3) + 0.4 * np.eye(2)[np.arange(10) % 2]
        >>> report = build_report(y, scores, n_boot=1, random_state=0)
        >>> list(report.files())  # doctest: +NORMALIZE_WHITESPACE
        ['figures/m1-model-confusion.png', 'figures/m1-model-roc_pr.png', 'figures/m1-model-reliability.png',
         'figures/m1-model-classwise.png', 'figures/m1-model-clouds.png', 'figures/m1-model-gini.png',
         'figures/all-dmf.png', 'results.json', 'report.html']
        """
        named = [(_model_id(index, name), figures) for index, (name, figures) in enumerate(self.figures.items())]
        files = {
            f"figures/{prefix}-{figure.key}.png": figure.png
            for prefix, figures in [*named, ("all", self.shared_figures)]
            for figure in figures
        }
        files["results.json"] = (json.dumps(self.results, indent=2, allow_nan=False) + "\n").encode("utf-8")
        files["report.html"] = self.to_html().encode("utf-8")
        return files

    def write(self, directory: str | os.PathLike | OutputDirectory) -> Path:
        """Write ``report.html``, ``results.json`` and ``figures/*.png`` into ``directory``.

        ``directory`` is a path or an open :class:`polyroc.io.OutputDirectory`
        (checked and locked before the work, as the command line does). It is
        created if absent; an existing one must be empty or hold an earlier
        report (see :func:`is_report_directory`), whose files are then replaced
        one by one, each atomically, and those the new report lacks removed.
        Files polyroc did not write are never touched, and the directory never
        lacks a complete ``report.html`` (see :mod:`polyroc.io`). Every byte
        is computed before the first is written, so an error leaves the
        earlier report as it was.

        Parameters
        ----------
        directory : str, os.PathLike or polyroc.io.OutputDirectory
            The directory to write: a path (created if absent; its parent must
            exist), or an output directory already opened (and locked) by the
            caller.

        Returns
        -------
        Path
            ``directory``.

        Raises
        ------
        FileExistsError
            ``directory`` holds other files where the report goes, or another
            process is writing it.
        FileNotFoundError
            Its parent directory does not exist.
        OSError
            Writing failed (e.g. the disk is full).
        ValueError
            ``directory`` is an empty path, or its manifest is damaged.
        TypeError
            ``directory`` is not a path or an OutputDirectory.

        See Also
        --------
        is_report_directory : Whether a directory may be written.
        Report.files : The files written.
        polyroc.io.OutputDirectory : The writer, with its guarantees.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> import numpy as np
        >>> y = np.repeat(["a", "b"], 5)
        >>> scores = np.full((10, 2), 0.3) + 0.4 * np.eye(2)[np.arange(10) % 2]
        >>> report = build_report(y, scores, n_boot=1, random_state=0)
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     out = report.write(pathlib.Path(tmp) / "report")
        ...     again = report.write(out)  # an earlier report is replaced
        ...     _ = (pathlib.Path(tmp) / "notes.txt").write_text("mine")
        ...     try:
        ...         report.write(tmp)  # a directory holding other files is refused
        ...     except FileExistsError as error:
        ...         refused = str(error)
        ...     sorted(path.name for path in out.iterdir())
        ['.polyroc-manifest.json', 'figures', 'report.html', 'results.json']
        >>> "the directory is not empty (notes.txt, report)" in refused
        True
        """
        files = self.files()
        if isinstance(directory, OutputDirectory):
            directory.write(files)
            path = directory.path
        else:
            with OutputDirectory(directory, reserved=REPORT_PATHS) as output:
                output.write(files)
            path = output.path
        object.__setattr__(self, "_written_to", Path(path))  # for __repr__ and the notebook view
        return path

    def _description(self) -> list[str]:
        """What the report covers and where its page is, in a few plain lines."""
        data = self.results["data"]
        test, validation = data["test"], data["validation"]
        rows = f"{test['n_samples']:,} test rows" + (
            "" if validation is None else f", {validation['n_samples']:,} validation rows"
        )
        written = getattr(self, "_written_to", None)
        where = (
            "not written yet: report.write(directory) writes report.html, or report.to_html() gives the page"
            if written is None
            else f"written to {written / 'report.html'}: open it in a browser"
        )
        return [
            f"{self.results['title']}: {len(self.results['models'])} model(s): {_listed(self.results['models'])}",
            f"{len(data['classes'])} classes: {_listed(data['classes'])}; {rows}",
            where,
        ]

    def __repr__(self) -> str:
        """A few lines: the models, the classes, the rows and where the page was written (the page is not included)."""
        return "\n".join(["Report(", *(f"  {line}" for line in self._description()), ")"])

    def _repr_html_(self) -> str:
        """The notebook view: the summary, each model's headline scores with their intervals, the settings folded.

        The figures are not embedded: the whole page is ``report.html`` (see :meth:`write`).
        """
        rows = []
        for name, model in self.results["models"].items():
            metrics, dmf = model.get("metrics") or {}, model.get("dmf") or {}
            intervals, scores = metrics.get("intervals", {}), metrics.get("scores", {})
            cells = [_with_bounds(scores.get(key), intervals.get(key)) for key in OVERVIEW_METRICS]
            rows.append([name, *cells, _with_bounds(dmf.get("D"), dmf.get("ci"))])
        methods = _overview_methods(self.results)
        note = "Estimate [CI]; " + "; ".join(f"{column}: {method}" for column, method in methods.items())
        header = ["model", *(READABLE_NAMES[key] for key in OVERVIEW_METRICS), "ROC-DMF D"]
        description = self._description()
        return html_view(
            "Report",
            [html_table(rows, header, "Models", note=note), *_warnings_table(self.results["warnings"])],
            [*description, *verdicts(self.results)],
            {**self.results["settings"], "warnings": len(self.results["warnings"])},
        )


def _with_bounds(value: float | None, record: dict[str, Any] | None) -> str:
    """``"estimate [low, high]"`` with three decimals, as the page shows them; the estimate alone without a record."""
    return number_text(value, 3) + ("" if record is None else f" {bounds_text(record['low'], record['high'], 3)}")


def _warnings_table(warnings: list[dict[str, Any]]) -> list[str]:
    """The report's warnings (each once, with its models) as a table; none without warnings."""
    rows = [[record["category"], record["message"], ", ".join(record["models"])] for record in warnings]
    return [html_table(rows, ["warning", "message", "models"], "Warnings")] if rows else []


def _listed(names: Any, most: int = 6) -> str:
    """Up to ``most`` names, comma-separated, then how many more."""
    names = [str(name) for name in names]
    more = "" if len(names) <= most else f", … ({len(names) - most} more)"
    return ", ".join(names[:most]) + more


def build_report(
    y_true: ArrayLike,
    y_score: ArrayLike | Mapping[str, ArrayLike],
    *,
    y_val: ArrayLike | None = None,
    val_scores: ArrayLike | Mapping[str, ArrayLike] | None = None,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    val_sample_weight: ArrayLike | None = None,
    metric: str = "f1_macro",
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
    ci: CiChoice | Mapping[str, str] = "auto",
    title: str = "polyroc report",
    source: str = "scores given in Python",
    notes: Sequence[str] = (),
    progress: Callable[[str, int, int], Any] | None = None,
    evaluations: Mapping[str, Any] | None = None,
    population: Mapping[str, Any] | None = None,
    cost_matrix: ArrayLike | None = None,
    target_priors: ArrayLike | Mapping[Any, float] | Literal["estimate"] | None = None,
) -> Report:
    """Evaluate one or more models' test scores (and tune thresholds on validation) into a report.

    Sections: data summary; metrics with intervals (each named by its
    method, as :func:`polyroc.evaluate` makes them);
    OvR ROC and PR curves; calibration (top-label and classwise ECE,
    reliability diagrams, a per-class calibration test and, with validation
    data, a temperature map fitted on validation and compared before and
    after on test); with validation data, thresholds tuned for
    ``metric`` and compared on test with argmax, Fréchet and inflated-argmax
    rules (paired bootstrap of tuned − argmax; Legnaro, Guastavino & Marchetti
    (2025), arXiv:2511.21794); ROC clouds and DFP (same authors); ROC-DMF with
    a bootstrap interval, and ranking probabilities for several models (Wang &
    Carvalho (2024), arXiv:2404.13147); the Gini-weighted ROC (Giudici,
    Rosciano, Schrader & Kummerfeld (2025), arXiv:2510.15670); plain-words
    readings of each. A baseline with constant scores is accepted; a section
    whose method is undefined for a model's scores is skipped, with the reason
    in ``results.json`` (``skipped``) and in its reading, and the other
    sections still run. Sample weights enter every section.

    Parameters
    ----------
    y_true : array-like of shape (n_test,)
        True labels of the evaluated (test) data, shared by the models.
    y_score : array-like of shape (n_test, m), or mapping of str to such arrays
        Each model's probability scores on test, columns in class order; one
        array is a single model named ``"model"``.
    y_val : array-like of shape (n_val,), default=None
        True labels of the tuning (validation) data.
    val_scores : array-like of shape (n_val, m), or mapping of str to such arrays, default=None
        Validation scores of the same models (the same names), for threshold tuning.
    labels : array-like of shape (m,), default=None
        Class order of the columns; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_test,), default=None
        Non-negative weights of relative importance of the test rows, used by
        every section (metrics, curves, rule comparison, ROC clouds, ROC-DMF,
        Gini ROC) and by every bootstrap replicate.
    val_sample_weight : array-like of shape (n_val,), default=None
        Weights of the validation rows, used by the tuning.
    metric : str, default="f1_macro"
        Tuning metric (a name of :data:`polyroc.counts.METRICS`).
    n_boot : int, default=1000
        Bootstrap replicates (and posterior draws) of the intervals that use
        them, >= 1.
    confidence : float, default=0.95
        Level of every interval, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of every resampling; pass an integer for a reproducible report
        (the command line passes 0 unless told otherwise).
    ci : str or mapping, default="auto"
        How the metrics' intervals are made, as :func:`polyroc.evaluate`'s
        ``ci``; the ROC-DMF, Gini and rule-comparison intervals are
        stratified bootstraps whatever it says. ``"none"`` is refused: the
        report's tables and readings quote each metric with its interval.
    title, source : str
        Shown at the top of the report.
    notes : sequence of str, default=()
        Remarks shown under the title (e.g. a skipped model).
    progress : callable, default=None
        Called as ``progress(description, done, total)`` before each step.
    evaluations : mapping of str to Evaluation, default=None
        Each model's metrics, computed elsewhere (e.g. exactly on all rows
        by :func:`polyroc.dask.evaluate`) and shown instead of evaluating
        ``y_score``; the other sections use ``y_score`` (e.g. a sample of
        the rows, :func:`polyroc.dask.sample_rows`). Say so in ``notes``.
    population : mapping, default=None
        With ``evaluations``: ``n_samples``, ``class_counts`` and
        ``class_weights`` (or None) of the rows the evaluations cover, shown
        as the test data; the data section then also records the rows given
        (``results["data"]["test"]["sample"]``).
    cost_matrix : array-like or pandas.DataFrame of shape (m, m), default=None
        ``cost_matrix[i, j]``: the cost of deciding class j when the class
        is i (in ``labels`` order, or a DataFrame labelled by the classes,
        as :func:`polyroc.io.read_cost_matrix` reads it). Adds a decisions
        section per model: the expected cost on test of argmax, of the
        Bayes rule (:func:`polyroc.bayes_decision`) and, with validation
        data, of thresholds tuned on validation for least expected cost,
        each with a t interval, and the paired differences against argmax.
    target_priors : array-like of shape (m,), mapping or "estimate", default=None
        With ``cost_matrix``: class priors at which to cost the rules too
        (:func:`polyroc.expected_cost`'s ``priors``), or ``"estimate"`` for
        each model's EM estimate of the priors of its test scores
        (:func:`polyroc.estimate_priors`, from the validation class shares;
        needs validation data), shown with their bootstrap intervals.

    Returns
    -------
    Report

    Raises
    ------
    ValueError
        Checked before any work: a score matrix that is not (n, m) with
        rows on the probability simplex, of finite non-negative values,
        or labels that are not among ``labels`` (the message names the
        model and the split); bad ``sample_weight`` or
        ``val_sample_weight``; ``y_val`` without ``val_scores`` or the
        reverse, ``val_sample_weight`` without them, or ``val_scores``
        naming other models than ``y_score``; an unknown ``metric`` or
        ``ci`` method, or ``ci="none"``; a model name holding a comma (the report's lists of
        models are comma-separated); ``n_boot`` below 1; ``confidence`` outside (0, 1);
        a negative ``random_state``; ``evaluations`` that do not name the
        models of ``y_score`` or have other classes; ``population`` without
        ``evaluations`` or without its keys; two models' scores that are
        DataFrames indexing the same rows in different orders (rows are
        paired by position); a cost matrix or target priors that
        :func:`polyroc.expected_cost` refuses, ``target_priors`` without
        ``cost_matrix``, or ``"estimate"`` without validation data.
    TypeError
        ``y_score`` (or ``val_scores``) that is neither a score matrix nor a
        non-empty mapping of model name to matrix; a model name that is not
        a non-empty string; non-numeric scores or weights; a ``metric``
        that is not a name; ``n_boot`` not an integer; ``confidence`` not a
        number; a ``random_state`` or ``ci`` of the wrong type; an entry of
        ``evaluations`` that is not an :class:`~polyroc.Evaluation`.

    See Also
    --------
    Report : The report it returns, with :meth:`Report.write`.
    polyroc.evaluate : The metrics and intervals of one model.
    polyroc.dmf.compare_models : The ROC-DMF comparison of several models.
    polyroc.gini.gini_roc : The Gini-weighted ROC section.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat(["a", "b", "c"], 20)
    >>> scores = rng.dirichlet(np.ones(3), 60) + 2 * np.eye(3)[np.repeat([0, 1, 2], 20)]
    >>> scores /= scores.sum(axis=1, keepdims=True)
    >>> report = build_report(y, scores, n_boot=50, random_state=0)
    >>> report.results["data"]["test"]["class_counts"]
    {'a': 20, 'b': 20, 'c': 20}
    >>> sorted(report.results["models"]["model"])
    ['calibration', 'constant_scores', 'dmf', 'gini', 'metrics', 'roc_cloud', 'skipped', 'tuning', 'warnings']
    >>> report.results["models"]["model"]["metrics"]["intervals"]["accuracy"]["settings"]["interval_method"]
    'Wilson score interval'
    """
    inputs = check_report_inputs(
        y_true,
        y_score,
        y_val=y_val,
        val_scores=val_scores,
        labels=labels,
        sample_weight=sample_weight,
        val_sample_weight=val_sample_weight,
        metric=metric,
        n_boot=n_boot,
        confidence=confidence,
        random_state=random_state,
        ci=ci,
        evaluations=evaluations,
        population=population,
        cost_matrix=cost_matrix,
        target_priors=target_priors,
    )
    analyses = [ModelAnalysis(name) for name in inputs.test]
    steps = analysis_steps(inputs, analyses)
    total = len(steps) + len(analyses) + 1
    returned = []
    # with a seed, the Gini ROC and ROC-DMF bootstraps draw the same replicates: drawn once, kept meanwhile
    seeded = isinstance(inputs.random_state, numbers.Integral)
    with shared_draws() if seeded else nullcontext():
        for done, (description, step) in enumerate(steps):
            if progress is not None:
                progress(description, done, total)
            returned.append(step())
    dmf_comparison = returned[-1]
    paired_tests = returned[-2] if len(analyses) > 1 else None
    figures = {}
    for done, analysis in enumerate(analyses, start=len(steps)):
        if progress is not None:
            progress(f"{analysis.name}: figures", done, total)
        figures[analysis.name] = model_figures(analysis, inputs)
    if progress is not None:
        progress("ROC-DMF figure", total - 1, total)
    shared_figures = comparison_figures(analyses)
    results = results_document(inputs, analyses, dmf_comparison, paired_tests, title=title, source=source, notes=notes)
    readings = {
        "data": data_reading(results),
        "comparison": comparison_reading(results),
        "paired_tests": paired_tests_reading(results),
        "omnibus": omnibus_reading(results),
    }
    readings.update({name: model_readings(model, results) for name, model in results["models"].items()})
    return Report(results, figures, shared_figures, readings, analyses)
