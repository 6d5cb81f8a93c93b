"""Scores as a DataFrame whose columns are named by the classes: polyroc's own functions take each column by name.

The scikit-learn-named metrics of :mod:`polyroc.metrics` keep scikit-learn's
rule (columns by position, in sorted label order) and warn when the names say
otherwise. Oracles: scikit-learn on the reordered numpy array.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as sk

from polyroc import evaluate, metrics, tune_thresholds
from polyroc.comparison import compare_scores
from polyroc.dmf import roc_dmf
from polyroc.gini import gini_roc
from polyroc.report._inputs import check_report_inputs
from polyroc.streaming import EvaluationAccumulator
from polyroc.thresholds import apply_thresholds

pd = pytest.importorskip("pandas")

CLASSES = np.array(["ei", "ie", "n"])  # sorted
SHUFFLED = ["n", "ei", "ie"]  # the order of the dna data's columns, not sorted


def _data(n=240, seed=0):
    """Labels and noisy probabilities (columns in sorted class order): about half the rows right."""
    rng = np.random.default_rng(seed)
    k = np.arange(n) % 3
    scores = rng.dirichlet(np.ones(3), n) * 0.7 + 0.3 * np.eye(3)[k]
    return CLASSES[k], scores


def _frame(scores, columns=SHUFFLED):
    """The sorted-order scores as a DataFrame named by class, its columns in ``columns`` order."""
    return pd.DataFrame(scores, columns=CLASSES)[list(columns)]


def test_evaluate_takes_dataframe_columns_by_class_name():
    y, scores = _data()
    frame = _frame(scores)
    assert not np.array_equal(frame.to_numpy(), scores)  # the columns really are out of order
    result = evaluate(y, frame, n_boot=0)
    assert result.classes == tuple(CLASSES)
    assert result.scores["accuracy"] == pytest.approx(sk.accuracy_score(y, CLASSES[scores.argmax(axis=1)]))
    assert result.scores["accuracy"] > 0.6  # far from the 1/3 of scores paired by position
    assert result.scores["roc_auc_ovr_macro"] == pytest.approx(sk.roc_auc_score(y, scores, multi_class="ovr"))
    assert result.scores["roc_auc_ovo_macro"] == pytest.approx(sk.roc_auc_score(y, scores, multi_class="ovo"))
    assert result.scores["log_loss"] == pytest.approx(sk.log_loss(y, scores))
    np.testing.assert_array_equal(result.confusion_matrix, sk.confusion_matrix(y, CLASSES[scores.argmax(axis=1)]))


def test_integer_classes_named_as_text_columns_as_a_csv_file_reads_them():
    y, scores = _data()
    codes = np.searchsorted(CLASSES, y)
    frame = pd.DataFrame(scores, columns=["0", "1", "2"])[["2", "0", "1"]]
    result = evaluate(codes, frame, n_boot=0)
    assert result.scores["accuracy"] == pytest.approx(sk.accuracy_score(codes, scores.argmax(axis=1)))


def test_unsorted_labels_name_the_columns_in_their_order():
    y, scores = _data()
    order = [int(np.flatnonzero(CLASSES == c)[0]) for c in SHUFFLED]
    by_labels = evaluate(y, scores[:, order], labels=SHUFFLED, n_boot=0)
    assert by_labels.classes == tuple(SHUFFLED)
    sorted_run = evaluate(y, scores, n_boot=0)
    assert by_labels.scores == pytest.approx(sorted_run.scores, rel=1e-12)
    assert by_labels.scores["roc_auc_ovr_macro"] == pytest.approx(sk.roc_auc_score(y, scores, multi_class="ovr"))
    # the confusion matrix and the report follow the classes as labels names them
    np.testing.assert_array_equal(
        by_labels.confusion_matrix, sk.confusion_matrix(y, CLASSES[scores.argmax(axis=1)], labels=SHUFFLED)
    )
    # a DataFrame with unsorted labels: its columns are put in the order of labels
    framed = evaluate(y, _frame(scores, sorted(SHUFFLED)), labels=SHUFFLED, n_boot=0)
    assert framed.scores == pytest.approx(by_labels.scores, rel=1e-12)


def test_polyroc_functions_agree_on_dataframe_and_reordered_array():
    y, scores = _data(seed=1)
    frame = _frame(scores)
    assert tune_thresholds(y, frame).best_score == tune_thresholds(y, scores).best_score
    np.testing.assert_array_equal(tune_thresholds(y, frame).best_threshold, tune_thresholds(y, scores).best_threshold)
    assert roc_dmf(y, frame).D == pytest.approx(roc_dmf(y, scores).D, rel=1e-12)
    np.testing.assert_allclose(gini_roc(y, frame).class_auc, gini_roc(y, scores).class_auc, rtol=1e-12)
    compared = compare_scores(y, {"a": scores, "b": frame}, random_state=0).to_frame()
    assert compared["difference"].abs().max() == pytest.approx(0.0, abs=1e-12)
    inputs = check_report_inputs(y, {"a": scores, "b": frame}, n_boot=10)
    np.testing.assert_array_equal(inputs.test["b"], scores)
    accumulator = EvaluationAccumulator(labels=CLASSES)
    accumulator.update(y[:100], frame.iloc[:100])
    accumulator.update(y[100:], scores[100:])
    assert accumulator.compute().scores == pytest.approx(evaluate(y, scores, n_boot=0).scores, rel=1e-9)


def test_columns_naming_some_classes_only_are_refused():
    y, scores = _data()
    frame = pd.DataFrame(scores, columns=["ei", "ie", "other"])
    with pytest.raises(ValueError, match=r"columns of y_score name the classes \['ei', 'ie'\] but not \['n'\]"):
        evaluate(y, frame, n_boot=0)


def _raises_text(function):
    """The text of the ValueError entry of ``function``'s numpydoc Raises section, on one line."""
    import inspect

    docscrape = pytest.importorskip("numpydoc.docscrape")
    entries = docscrape.NumpyDocString(inspect.getdoc(function))["Raises"]
    return " ".join(
        " ".join(" ".join(lines) for name, kind, lines in entries if "ValueError" in f"{name} {kind}").split()
    )


def _partial_frame_functions():
    """(function, call, argument) of each public function that takes a DataFrame of scores (or sets) by class."""
    from polyroc import curves, dmf, intervals, streaming, thresholds

    functions = [
        evaluate,
        tune_thresholds,
        roc_dmf,
        gini_roc,
        dmf.pairwise_rates,
        curves.ovr_roc_curve,
        curves.ovr_precision_recall_curve,
        intervals.roc_auc_interval,
        thresholds.roc_cloud,
        thresholds.coordinate_profile,
        thresholds.threshold_batches,
    ]
    calls = [pytest.param(f, lambda f, y, frame: f(y, frame), "y_score", id=f.__name__) for f in functions]
    for name in ("coverage", "average_set_size", "singleton_rate", "singleton_correct", "accuracy_among_singletons"):
        calls.append(pytest.param(getattr(thresholds, name), lambda f, y, frame: f(y, frame), "sets", id=name))
    for name in ("ConfusionAccumulator", "LossAccumulator", "RankingAccumulator", "EvaluationAccumulator"):
        kind = getattr(streaming, name)
        update = lambda f, y, frame, k=kind: k(CLASSES).update(y, frame)  # noqa: E731
        calls.append(pytest.param(kind.update, update, "y_score", id=name))
    return calls


@pytest.mark.parametrize(("function", "call", "argument"), _partial_frame_functions())
def test_columns_naming_some_classes_only_are_refused_and_documented(function, call, argument):
    y, scores = _data(n=60)
    frame = pd.DataFrame(scores, columns=["ei", "ie", "other"])
    if argument == "sets":
        frame = (frame > 0.3).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=rf"^the columns of {argument} name the classes \['ei', 'ie'\] but not"):
            call(function, y, frame)
    assert f"``{argument}`` is a DataFrame whose column names are some of the classes but not all" in _raises_text(
        function
    )


def test_other_column_names_pair_columns_by_position():
    y, scores = _data()
    for columns in (["p_ei", "p_ie", "p_n"], None):
        result = evaluate(y, pd.DataFrame(scores, columns=columns), n_boot=0)
        assert result.scores["accuracy"] == pytest.approx(sk.accuracy_score(y, CLASSES[scores.argmax(axis=1)]))


@pytest.mark.parametrize(
    ("function", "options"),
    [
        (metrics.roc_auc_score, {"multi_class": "ovr"}),
        (metrics.log_loss, {}),
        (metrics.brier_score_loss, {}),
        (metrics.top_k_accuracy_score, {"k": 1}),
        (metrics.average_precision_score, {}),
    ],
)
def test_sklearn_named_metrics_keep_positions_and_warn(function, options):
    y, scores = _data()
    frame = _frame(scores)
    name = "y_proba" if function in (metrics.log_loss, metrics.brier_score_loss) else "y_score"
    with pytest.warns(UserWarning, match=rf"columns of {name} .*\['n', 'ei', 'ie'\].*sorted label order"):
        value = function(y, frame, **options)
    expected = getattr(sk, function.__name__)(y, frame.to_numpy(), **options)  # scikit-learn: by position
    assert value == pytest.approx(expected, rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        function(y, _frame(scores, CLASSES), **options)  # columns named in sorted order: nothing to say


def test_tuned_rule_applies_to_a_dataframe_by_column_name():
    y, scores = _data(seed=2)
    result = tune_thresholds(y, scores)
    expected = CLASSES[np.argmax(scores - result.best_threshold, axis=1)]  # the rule argmax(p - tau), by hand
    np.testing.assert_array_equal(result.predict(_frame(scores)), expected)
    np.testing.assert_array_equal(
        apply_thresholds(_frame(scores), result.best_threshold, labels=result.classes), expected
    )
    accumulator = EvaluationAccumulator(labels=CLASSES)
    accumulator.update(y[:0], _frame(scores[:0]))  # an empty batch of named columns is checked alike
    with pytest.raises(ValueError, match="columns of y_score name the classes"):
        accumulator.update(y[:0], pd.DataFrame(scores[:0], columns=["ei", "ie", "x"]))


def test_unsorted_labels_agree_across_polyroc_functions():
    """Guard: every function of polyroc's own API reads the columns in the order of ``labels``, sorted or not."""
    y, scores = _data(seed=3)
    order = [int(np.flatnonzero(CLASSES == c)[0]) for c in SHUFFLED]
    permuted = scores[:, order]
    tuned, reference = tune_thresholds(y, permuted, labels=SHUFFLED), tune_thresholds(y, scores)
    assert tuned.best_score == pytest.approx(reference.best_score, rel=1e-12)  # a sum in another class order
    np.testing.assert_array_equal(tuned.best_threshold, reference.best_threshold[order])
    assert roc_dmf(y, permuted, labels=SHUFFLED).D == pytest.approx(roc_dmf(y, scores).D, rel=1e-12)
    assert gini_roc(y, permuted, labels=SHUFFLED).auc_agg == pytest.approx(gini_roc(y, scores).auc_agg, rel=1e-12)
    assert check_report_inputs(y, permuted, labels=SHUFFLED, n_boot=10).classes.tolist() == SHUFFLED
    accumulator = EvaluationAccumulator(labels=SHUFFLED)
    accumulator.update(y, permuted)
    expected = sk.roc_auc_score(y, scores, multi_class="ovo")
    assert accumulator.compute().scores["roc_auc_ovo_macro"] == pytest.approx(expected, rel=1e-12)


def test_models_as_dataframes_of_the_same_rows_in_other_orders_are_refused():
    y, scores = _data(seed=4)
    order = np.random.default_rng(4).permutation(y.size)
    first = pd.DataFrame(scores, columns=CLASSES)
    shuffled = first.iloc[order]  # the same rows (by index) in another order: paired by position, they mismatch
    with pytest.raises(ValueError, match=r"models 'a' and 'b' are DataFrames indexing the same rows in different"):
        compare_scores(y, {"a": first, "b": shuffled})
    with pytest.raises(ValueError, match=r"y_score of models 'a' and 'b' are DataFrames indexing the same rows"):
        check_report_inputs(y, {"a": first, "b": shuffled}, n_boot=10)
    # put in one order, or indexed by other rows (a default index beside another): paired by position
    aligned = compare_scores(y, {"a": first, "b": shuffled.loc[first.index]}, random_state=0).to_frame()
    assert aligned["difference"].abs().max() == 0.0
    check_report_inputs(y, {"a": first, "b": first.set_axis(np.arange(y.size) + 1000)}, n_boot=10)
