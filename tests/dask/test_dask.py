"""polyroc.dask.evaluate on a real LocalCluster against in-memory polyroc.evaluate.

The oracle is :func:`polyroc.evaluate` on the concatenated rows (itself checked
against scikit-learn elsewhere): every score, the confusion matrix, the report
and the intervals that rest on sums must agree to 1e-12 whatever the
partitioning, including empty partitions and classes missing from some.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time

import numpy as np
import pytest

pytest.importorskip("dask.distributed")
pd = pytest.importorskip("pandas")

import dask.dataframe as dd  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import polyroc  # noqa: E402
from polyroc.dask import evaluate, read_score_files  # noqa: E402
from polyroc.dask._poisson import poisson_multiplicities  # noqa: E402
from tests.evaluation.checks import assert_same_evaluation  # noqa: E402

pytestmark = pytest.mark.slow  # local dask clusters: not in the quick run (-m "not slow")

CLASSES = ["ant", "bee", "cat", "dog", "eel"]


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as connected:
            yield connected


def scored_rows(n=600, m=4, seed=0, weighted=True, ties=True):
    """Rows with tied scores (rounded to 0.05), integer and zero weights, a rare class."""
    rng = np.random.default_rng(seed)
    classes = CLASSES[:m]
    y = rng.choice(m, size=n, p=[*([0.97 / (m - 1)] * (m - 1)), 0.03])
    scores = rng.dirichlet(np.ones(m), size=n) + 0.8 * np.eye(m)[y] * rng.random((n, 1))
    if ties:
        scores = np.round(scores / scores.sum(axis=1, keepdims=True) * 20) / 20 + 1e-9
    scores /= scores.sum(axis=1, keepdims=True)
    table = pd.DataFrame(scores, columns=classes)
    table["label"] = np.array(classes)[y]
    if weighted:
        weights = rng.integers(0, 4, size=n).astype(float)
        weights[rng.random(n) < 0.3] = rng.random() * 2
        table["w"] = weights
    return table


def uneven_frame(table, cuts):
    """A dask frame whose partitions are the rows between the cuts (repeated cuts give empty partitions)."""
    bounds = [0, *cuts, len(table)]
    parts = [table.iloc[start:stop] for start, stop in itertools.pairwise(bounds)]
    return dd.from_map(lambda part: part, parts, meta=table.iloc[:0], enforce_metadata=False)


def in_memory(table, weighted, **options):
    classes = [c for c in table.columns if c not in ("label", "w")]
    return polyroc.evaluate(
        table["label"].to_numpy(),
        table[classes].to_numpy(),
        labels=classes,
        sample_weight=table["w"].to_numpy() if weighted else None,
        **options,
    )


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("m", [2, 3, 5])
def test_every_number_equals_in_memory_evaluate(client, weighted, m):
    table = scored_rows(m=m, weighted=weighted, seed=m)
    # an empty partition, one of 3 rows, and one holding only the first class
    first_class = table.sort_values("label", kind="stable").reset_index(drop=True)
    frame = uneven_frame(first_class, [0, 0, 3, 40, 41, 300])
    options = {"random_state": 5, "n_boot": 300}
    found = evaluate(frame, sample_weight_col="w" if weighted else None, rows_per_sort=57, **options)
    expected = in_memory(first_class, weighted, **options)
    assert_same_evaluation(found, expected)
    assert found.settings["engine"] == "dask" and found.settings["partitions"] == 7


def test_partitioning_and_pass_size_change_nothing(client):
    table = scored_rows(n=900, m=4, seed=11)
    options = {"sample_weight_col": "w", "n_boot": 0}
    one = evaluate(uneven_frame(table, [100, 101, 700]), rows_per_sort=37, rows_per_pass=200, **options)
    other = evaluate(dd.from_pandas(table, npartitions=1), **options)
    assert_same_evaluation(one, other, intervals=False)
    assert one.scores["roc_auc_ovr_micro"] == pytest.approx(
        in_memory(table, True, n_boot=0).scores["roc_auc_ovr_micro"]
    )


def test_scores_without_ties_and_heavy_ties_on_a_quantile():
    """Half the rows score exactly 0.5 in every column of a binary problem: one point cell holds them."""
    rng = np.random.default_rng(3)
    n = 400
    p = np.where(rng.random(n) < 0.5, 0.5, rng.random(n))
    table = pd.DataFrame({"no": 1 - p, "yes": p, "label": np.where(rng.random(n) < p, "yes", "no")})
    found = evaluate(dd.from_pandas(table, npartitions=3), n_boot=0, rows_per_sort=20)
    expected = in_memory(table, False, n_boot=0)
    assert_same_evaluation(found, expected, intervals=False)


def test_float32_scores_equal_in_memory_float32():
    table = scored_rows(n=500, m=3, seed=4, ties=False)
    classes = CLASSES[:3]
    table[classes] = table[classes].astype(np.float32)
    found = evaluate(dd.from_pandas(table, npartitions=4), sample_weight_col="w", n_boot=0, rows_per_sort=50)
    expected = in_memory(table, True, n_boot=0)
    assert_same_evaluation(found, expected, intervals=False)


def test_poisson_bootstrap_does_not_depend_on_the_partitioning(client):
    table = scored_rows(n=500, m=3, seed=8)
    options = {"sample_weight_col": "w", "ci": "bootstrap", "n_boot": 40, "random_state": 9}
    one = evaluate(uneven_frame(table, [0, 77, 78, 260]), rows_per_sort=45, **options)
    other = evaluate(dd.from_pandas(table, npartitions=2), rows_per_sort=400, **options)
    for name, interval in one.intervals.items():
        assert interval.method == "Poisson bootstrap (percentile)"
        assert interval.high > interval.low, name  # replicates vary
        twin = other.intervals[name]
        assert (interval.low, interval.high) == pytest.approx((twin.low, twin.high), rel=1e-12, abs=1e-12), name
    changed = evaluate(dd.from_pandas(table, npartitions=2), **{**options, "random_state": 10})
    assert changed.intervals["accuracy"].low != other.intervals["accuracy"].low or (
        changed.intervals["accuracy"].high != other.intervals["accuracy"].high
    )


def test_poisson_bootstrap_replicate_equals_a_weighted_in_memory_evaluation():
    """A replicate's scores are those of the rows weighted by their Poisson multiplicities."""
    table = scored_rows(n=300, m=3, seed=2, weighted=False)
    frame = dd.from_pandas(table, npartitions=3)
    from polyroc.dask._evaluate import _Partitions, _replicate_scores, _summarise
    from polyroc.dask._ranking import Axis, Replicates
    from polyroc.dask._rows import frame_columns

    columns = frame_columns(table.columns, "label")
    parts = _Partitions(frame, columns, np.array([0, 100, 200]))
    replicates = Replicates(123, np.arange(3))
    summaries = parts.compute(_summarise, replicates, parts.sample_size)
    axes = [Axis(k, 3) for k in range(3)] + [Axis(None, 3)]
    drawn = _replicate_scores(parts, summaries, axes, 50, 10**8, replicates, 3)
    multiplicities = poisson_multiplicities(123, np.arange(300, dtype=np.uint64), np.arange(3))
    for r in range(3):
        weighted = table.assign(w=multiplicities[r].astype(float))
        expected = in_memory(weighted, True, n_boot=0).scores
        for name, value in expected.items():
            assert drawn[name][r] == pytest.approx(value, rel=1e-12), (name, r)


def test_poisson_multiplicities_are_poisson_one():
    draws = poisson_multiplicities(2024, np.arange(200_000, dtype=np.uint64), np.arange(5)).ravel()
    assert abs(draws.mean() - 1.0) < 0.01 and abs(draws.var() - 1.0) < 0.015  # sd of each about 0.0014, 0.003
    from scipy.stats import chisquare, poisson

    observed = np.bincount(np.minimum(draws, 6), minlength=7)
    expected = poisson.pmf(np.arange(6), 1.0)
    expected = np.append(expected, 1 - expected.sum()) * draws.size
    assert chisquare(observed, expected).pvalue > 1e-4
    # a row's multiplicity depends on its id, the seed and the replicate only
    assert not np.array_equal(draws[:1000], poisson_multiplicities(2025, np.arange(1000, dtype=np.uint64), [0])[0])


def test_a_killed_worker_changes_nothing(client):
    table = scored_rows(n=2000, m=3, seed=21)
    parts = [table.iloc[i : i + 250] for i in range(0, 2000, 250)]

    def slow(part):
        time.sleep(0.4)
        return part

    frame = dd.from_map(slow, parts, meta=table.iloc[:0], enforce_metadata=False)
    found, killed_while_running = {}, []

    def run():
        found["result"] = evaluate(frame, sample_weight_col="w", n_boot=0, rows_per_sort=300)

    worker = threading.Thread(target=run)
    worker.start()
    deadline = time.monotonic() + 60
    while not any(client.processing().values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    victim = next(address for address, tasks in client.processing().items() if tasks)
    os.kill(client.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)
    killed_while_running.append(worker.is_alive())
    worker.join(timeout=300)
    assert killed_while_running == [True]
    assert_same_evaluation(found["result"], in_memory(table, True, n_boot=0), intervals=False)
    client.wait_for_workers(2, timeout=60)


def test_read_score_files_reads_parquet_and_csv_parts(tmp_path):
    table = scored_rows(n=300, m=3, seed=6)
    for i, start in enumerate(range(0, 300, 100)):
        table.iloc[start : start + 100].to_parquet(tmp_path / f"part-{i}.parquet", index=False)
        table.iloc[start : start + 100].to_csv(tmp_path / f"part-{i}.csv", index=False)
    expected = in_memory(table, True, n_boot=0)
    for pattern in ("part-*.parquet", "part-*.csv"):
        frame = read_score_files(str(tmp_path / pattern))
        assert frame.npartitions == 3
        found = evaluate(frame, sample_weight_col="w", n_boot=0)
        assert_same_evaluation(found, expected, intervals=False)


def test_files_with_different_columns_are_named(tmp_path):
    table = scored_rows(n=20, m=3, seed=1)
    table.to_parquet(tmp_path / "a.parquet", index=False)
    table.drop(columns="cat").to_parquet(tmp_path / "b.parquet", index=False)
    with pytest.raises(ValueError, match=r"b\.parquet: its columns differ .* missing \['cat'\], extra \[\]"):
        read_score_files(str(tmp_path / "*.parquet"))
    table.rename(columns={"cat": "cow"}).to_csv(tmp_path / "c.csv", index=False)
    table.to_csv(tmp_path / "d.csv", index=False)
    with pytest.raises(ValueError, match=r"d\.csv: its columns differ .* missing \['cow'\], extra \['cat'\]"):
        read_score_files(str(tmp_path / "*.csv"))
    with pytest.raises(ValueError, match="no file matches"):
        read_score_files(str(tmp_path / "none-*.csv"))
    with pytest.raises(ValueError, match="mix Parquet and CSV"):
        read_score_files([tmp_path / "a.parquet", tmp_path / "d.csv"])


def test_non_numeric_scores_name_the_file_or_partition(tmp_path):
    table = scored_rows(n=20, m=3, seed=1)
    table.to_parquet(tmp_path / "a.parquet", index=False)
    table.assign(bee=table["bee"].astype(str)).to_parquet(tmp_path / "b.parquet", index=False)
    with pytest.raises(TypeError, match=r"b\.parquet: column 'bee' is not numeric"):
        read_score_files(str(tmp_path / "*.parquet"))
    table.to_csv(tmp_path / "a.csv", index=False)
    table.assign(bee=["x", *table["bee"].iloc[1:]]).to_csv(tmp_path / "b.csv", index=False)
    frame = read_score_files(str(tmp_path / "*.csv"))
    with pytest.raises(TypeError, match=r"b\.csv: column 'bee' is not numeric"):
        evaluate(frame, sample_weight_col="w", n_boot=0)
    texts = table.assign(bee=table["bee"].astype(object))
    parts = dd.from_map(lambda part: part, [table, texts], meta=table.iloc[:0], enforce_metadata=False)
    with pytest.raises(TypeError, match=r"partition 1: score columns \['bee'\] are not numeric"):
        evaluate(parts, sample_weight_col="w", n_boot=0)


def test_bad_frames_are_refused_with_the_argument_named():
    table = scored_rows(n=30, m=3, seed=1)
    frame = dd.from_pandas(table, npartitions=2)
    with pytest.raises(TypeError, match="frame must be a dask DataFrame, got DataFrame"):
        evaluate(table)
    with pytest.raises(ValueError, match="label_col 'truth' is not a column"):
        evaluate(frame, label_col="truth")
    with pytest.raises(ValueError, match=r"score_cols \['cow'\] are not columns"):
        evaluate(frame, score_cols=["ant", "cow"], sample_weight_col="w")
    with pytest.raises(ValueError, match="cannot be both a score column and the label"):
        evaluate(frame, score_cols=["ant", "bee", "w"], sample_weight_col="w")
    with pytest.raises(ValueError, match=r"partition \d: labels \['cat'\] are not among the score columns"):
        evaluate(frame, score_cols=["ant", "bee"], sample_weight_col="w", n_boot=0, normalize_rows=True)
    negative = table.assign(w=np.where(np.arange(30) == 20, -1.0, table["w"]))
    with pytest.raises(ValueError, match=r"partition 1: sample weights must be finite and non-negative \(row 5"):
        evaluate(dd.from_pandas(negative, npartitions=2), sample_weight_col="w", n_boot=0)
    off = table.assign(ant=np.where(np.arange(30) == 20, table["ant"] + 0.5, table["ant"]))
    with pytest.raises(ValueError, match=r"partition 1: rows of y_score must sum to 1 \(row 5 sums to"):
        evaluate(dd.from_pandas(off, npartitions=2), sample_weight_col="w", n_boot=0)
    rescaled = evaluate(dd.from_pandas(off, npartitions=2), sample_weight_col="w", n_boot=0, normalize_rows=True)
    expected = in_memory(off, True, n_boot=0, normalize_rows=True)
    assert_same_evaluation(rescaled, expected, intervals=False)
    with pytest.raises(ValueError, match="rows_per_sort"):
        evaluate(frame, sample_weight_col="w", rows_per_sort=0)


@pytest.mark.parametrize("as_text", [False, True])
def test_integer_labels_match_column_names(as_text):
    """Columns named by integers are the integer classes, in numeric order, whether the labels are read as
    integers or as text; the in-memory oracle gets the integer labels and the columns in numeric order."""
    names = ["0", "1", "10", "11", "2", "3", "4", "5", "6", "7", "8", "9"]  # text order, as a header may be
    rng = np.random.default_rng(7)
    y = rng.integers(0, 12, 300)
    scores = rng.dirichlet(np.ones(12), 300)
    scores[np.arange(300), y] += 0.5
    scores /= scores.sum(axis=1, keepdims=True)
    table = pd.DataFrame(scores[:, [int(name) for name in names]], columns=names)
    table["label"] = y.astype(str) if as_text else y
    found = evaluate(dd.from_pandas(table, npartitions=2), n_boot=0)
    expected = polyroc.evaluate(y, scores, labels=np.arange(12), n_boot=0)
    assert list(found.classes) == list(range(12))
    assert_same_evaluation(found, expected, intervals=False)


def test_cli_engine_dask_prints_what_the_in_memory_engine_prints(tmp_path, capsys):
    from polyroc.cli import main

    table = scored_rows(n=300, m=3, seed=12)
    for i, start in enumerate(range(0, 300, 100)):
        table.iloc[start : start + 100].to_parquet(tmp_path / f"part-{i}.parquet", index=False)
    table.to_csv(tmp_path / "all.csv", index=False)
    common = ["--weight-col", "w", "--ci", "none", "-q"]
    assert (
        main(["evaluate", "--scores", str(tmp_path / "part-*.parquet"), "--engine", "dask", "--workers", "1", *common])
        == 0
    )
    on_dask = capsys.readouterr().out
    assert main(["evaluate", "--scores", str(tmp_path / "all.csv"), *common]) == 0
    in_memory_text = capsys.readouterr().out
    assert "3 files, 3 classes, engine dask" in on_dask.splitlines()[0]
    # the same report, scores and matrix below the title line (weighted supports may differ in the last digit)
    scores = [line for line in on_dask.splitlines() if line.startswith(("accuracy ", "roc_auc", "log_loss"))]
    assert scores and all(line in in_memory_text.splitlines() for line in scores)


def test_cli_engine_options_are_checked(tmp_path, capsys):
    from polyroc.cli import main

    assert main(["evaluate", "--workers", "2"]) != 0
    assert "--scheduler and --workers need --engine dask" in capsys.readouterr().err
    assert main(["evaluate", "--engine", "dask"]) != 0
    assert "--engine dask needs --scores" in capsys.readouterr().err
    assert main(["evaluate", "--engine", "dask", "--scores", str(tmp_path / "none-*.parquet")]) != 0
    assert "no file matches" in capsys.readouterr().err


def test_delong_spread_of_large_classes_from_a_sample(client, monkeypatch):
    """Classes above the cap are sampled: the placements stay exact, the variance is estimated near the truth."""
    from polyroc.dask import _delong

    table = scored_rows(n=4000, m=3, seed=30, weighted=False)
    expected = in_memory(table, False, random_state=1, n_boot=200)
    monkeypatch.setattr(_delong, "SAMPLE_CAP", 600)  # the largest classes have about 1940 rows
    found = evaluate(dd.from_pandas(table, npartitions=4), random_state=1, n_boot=200, rows_per_sort=700)
    for name in ("roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovo_macro", "roc_auc_ovr_micro"):
        mine, exact = found.intervals[name], expected.intervals[name]
        assert mine.method.endswith("from a sample of their rows"), mine.method
        width, exact_width = mine.high - mine.low, exact.high - exact.low
        # half-width error of a variance estimated from about 600 rows per large class: a few percent
        assert abs(width / exact_width - 1) < 0.15, (name, width, exact_width)
        assert mine.low != exact.low


@pytest.mark.parametrize(
    "options",
    [
        {"search": "lattice", "resolution": 12, "metric": "f1_macro"},
        {"search": "random", "n_samples": 3000, "random_state": 4, "metric": "balanced_accuracy"},
        {"resolution": 9, "metric": "matthews_corrcoef", "domain": "box", "tie_break": "first"},
    ],
)
def test_tuning_equals_the_in_memory_search(client, options):
    from polyroc.dask import tune_thresholds
    from polyroc.thresholds import tune_thresholds as tune_in_memory

    table = scored_rows(n=700, m=4, seed=40)
    frame = uneven_frame(table, [0, 0, 250, 251])
    found = tune_thresholds(frame, sample_weight_col="w", return_surface=True, **options)
    expected = tune_in_memory(
        table["label"].to_numpy(),
        table[CLASSES[:4]].to_numpy(),
        labels=CLASSES[:4],
        sample_weight=table["w"].to_numpy(),
        return_surface=True,
        **options,
    )
    np.testing.assert_array_equal(found.best_threshold, expected.best_threshold)
    assert found.best_score == pytest.approx(expected.best_score, rel=1e-12)
    assert found.argmax_score == pytest.approx(expected.argmax_score, rel=1e-12)
    assert found.n_thresholds == expected.n_thresholds
    np.testing.assert_array_equal(found.thresholds, expected.thresholds)
    np.testing.assert_allclose(found.scores, expected.scores, rtol=1e-12, atol=1e-12)
    assert found.settings["engine"] == "dask" and found.settings["search"] == expected.settings["search"]


def test_tuning_refuses_the_coordinate_search():
    from polyroc.dask import tune_thresholds

    frame = dd.from_pandas(scored_rows(n=30, m=3, seed=1), npartitions=2)
    with pytest.raises(ValueError, match="search"):
        tune_thresholds(frame, sample_weight_col="w", search="coordinate")


def _no_dask_work(*args, **kwargs):
    raise AssertionError("the partitions were read before the options were checked")


@pytest.mark.parametrize("search", [{"search": "lattice", "resolution": 6}, {}, {"search": "random", "n_samples": 50}])
@pytest.mark.parametrize(
    ("random_state", "error", "match"),
    [
        (-1, ValueError, "^random_state must be a non-negative integer seed, got -1$"),
        ("seed", TypeError, "^random_state must be None, an integer seed or a numpy.random.Generator, got str$"),
        (True, TypeError, "^random_state must be None, an integer seed or a numpy.random.Generator, got bool$"),
    ],
)
def test_tuning_refuses_a_bad_random_state_whatever_the_search(monkeypatch, search, random_state, error, match):
    from polyroc.dask import _tuning

    monkeypatch.setattr(_tuning, "_Partitions", _no_dask_work)
    frame = dd.from_pandas(scored_rows(n=30, m=3, seed=1), npartitions=2)
    with pytest.raises(error, match=match):
        _tuning.tune_thresholds(frame, sample_weight_col="w", random_state=random_state, **search)


@pytest.mark.parametrize(
    ("option", "value", "error", "match"),
    [
        ("normalize_rows", "yes", ValueError, "^normalize_rows must be one of True, False; got 'yes'$"),
        ("from_logits", 2, ValueError, "^from_logits must be one of True, False; got 2$"),
        ("from_logits", [True], TypeError, r"^from_logits must be one of True, False; got list \[True\]$"),
        ("normalize_rows", np.array([1.0]), TypeError, "^normalize_rows must be one of True, False; got ndarray"),
    ],
)
def test_evaluate_refuses_transform_flags_that_are_not_booleans(monkeypatch, option, value, error, match):
    from polyroc.dask import _evaluate

    monkeypatch.setattr(_evaluate, "_Partitions", _no_dask_work)
    frame = dd.from_pandas(scored_rows(n=30, m=3, seed=1), npartitions=2)
    with pytest.raises(error, match=match):
        _evaluate.evaluate(frame, sample_weight_col="w", n_boot=0, **{option: value})


@pytest.mark.parametrize(
    ("drop_intermediate", "weights"),
    [(True, None), (True, "integer"), (False, None), (False, "fractional")],
)
def test_roc_curves_equal_the_in_memory_curves(client, drop_intermediate, weights):
    """Every point, with ties on the cut points; dropping collinear points is compared on exact sums only
    (with fractional weights a second difference that is 0 in one order of summation can be 1e-17 in another)."""
    from polyroc.curves import ovr_roc_curve as in_memory_curves
    from polyroc.dask import ovr_roc_curve

    weighted = weights is not None
    table = scored_rows(n=800, m=4, seed=50, weighted=weighted)
    if weights == "integer":
        table["w"] = np.round(table["w"])
    by_class = table.sort_values("label", kind="stable").reset_index(drop=True)
    classes = CLASSES[:4]
    found = ovr_roc_curve(
        uneven_frame(by_class, [0, 0, 5, 300]),
        sample_weight_col="w" if weighted else None,
        drop_intermediate=drop_intermediate,
        rows_per_sort=90,
        rows_per_pass=700,
    )
    expected = in_memory_curves(
        by_class["label"].to_numpy(),
        by_class[classes].to_numpy(),
        labels=classes,
        sample_weight=by_class["w"].to_numpy() if weighted else None,
        drop_intermediate=drop_intermediate,
    )
    for name in ("fpr", "tpr", "thresholds"):
        for mine, theirs in zip(getattr(found, name), getattr(expected, name)):
            np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(getattr(found, f"micro_{name}"), getattr(expected, f"micro_{name}"), rtol=1e-12)
    np.testing.assert_allclose(found.auc, expected.auc, rtol=1e-12)
    assert found.micro_auc == pytest.approx(expected.micro_auc, rel=1e-12)


def test_sample_rows_is_stratified_weighted_and_partition_free(client):
    from polyroc.dask import sample_rows

    table = scored_rows(n=3000, m=3, seed=60)
    one = sample_rows(uneven_frame(table, [0, 500, 501]), sample_weight_col="w", rows_per_class=300, seed=3)
    other = sample_rows(dd.from_pandas(table, npartitions=2), sample_weight_col="w", rows_per_class=300, seed=3)
    np.testing.assert_array_equal(one.row_ids, other.row_ids)
    np.testing.assert_array_equal(one.y_score, table[CLASSES[:3]].to_numpy()[one.row_ids.astype(np.intp)])
    np.testing.assert_array_equal(one.y_true, table["label"].to_numpy()[one.row_ids.astype(np.intp)])
    positive = table[table["w"] > 0]
    class_rows = positive["label"].value_counts().reindex(CLASSES[:3]).to_numpy()
    np.testing.assert_array_equal(one.class_rows, class_rows)
    np.testing.assert_allclose(one.inclusion, np.minimum(1.0, 300 / class_rows))
    assert one.inclusion[2] == 1.0  # the rare class (about 60 rows) is kept whole
    rare = positive[positive["label"] == CLASSES[2]]
    assert sorted(one.row_ids[one.y_true == CLASSES[2]]) == sorted(rare.index)
    for k, label in enumerate(CLASSES[:3]):
        drawn = one.y_true == label
        expected_rows = class_rows[k] * one.inclusion[k]
        assert abs(drawn.sum() - expected_rows) < 4 * np.sqrt(expected_rows) + 1  # binomial, 4 sd
        # design weights: the sample's weight of the class estimates the frame's
        total = positive.loc[positive["label"] == label, "w"].sum()
        assert one.sample_weight[drawn].sum() == pytest.approx(total, rel=0.25)


def test_cli_report_on_dask_has_exact_metrics_and_sampled_sections(tmp_path, capsys):
    import json

    from polyroc.cli import main

    table = scored_rows(n=1200, m=3, seed=70)
    other = table.assign(**{c: np.roll(table[c].to_numpy(), 1) for c in CLASSES[:3]})  # a second, worse model
    for name, scores in (("good", table), ("poor", other)):
        for i, start in enumerate(range(0, 1200, 400)):
            scores.iloc[start : start + 400].to_parquet(tmp_path / f"{name}-{i}.parquet", index=False)
            scores.iloc[start : start + 400].to_parquet(tmp_path / f"{name}-val-{i}.parquet", index=False)
    arguments = ["report", "--engine", "dask", "--workers", "1", "--weight-col", "w", "--n-boot", "50", "-q"]
    arguments += ["--id-col", ""]  # the models' files hold the same rows in the same order: paired by position
    arguments += ["--scores", f"good={tmp_path}/good-?.parquet", "--scores", f"poor={tmp_path}/poor-?.parquet"]
    arguments += ["--val", f"good={tmp_path}/good-val-?.parquet", "--val", f"poor={tmp_path}/poor-val-?.parquet"]
    arguments += ["--sample-rows", "150", "--out", str(tmp_path / "report")]
    assert main(arguments) == 0, capsys.readouterr().err
    results = json.loads((tmp_path / "report" / "results.json").read_text())
    for name, scores in (("good", table), ("poor", other)):
        expected = in_memory(scores, True, n_boot=50, random_state=0)
        for score, value in expected.scores.items():
            assert results["models"][name]["metrics"]["scores"][score] == pytest.approx(value, rel=1e-12), score
        assert results["models"][name]["dmf"] is not None and results["models"][name]["tuning"] is not None
    test = results["data"]["test"]
    positive = table[table["w"] > 0]
    assert test["class_counts"] == positive["label"].value_counts().reindex(CLASSES[:3]).to_dict()
    assert test["n_samples"] == len(positive) and test["sample"]["n_samples"] < len(positive)
    weights = positive.groupby("label")["w"].sum().reindex(CLASSES[:3])
    assert test["class_weights"] == pytest.approx(weights.to_dict(), rel=1e-12)
    assert "cover all" in results["notes"][0] and "class-stratified sample" in results["notes"][0]
    assert "class-stratified sample" in (tmp_path / "report" / "report.html").read_text()


def test_report_evaluations_must_match_the_models():
    from polyroc.report import build_report

    table = scored_rows(n=400, m=3, seed=71)
    y, P = table["label"].to_numpy(), table[CLASSES[:3]].to_numpy()
    exact = polyroc.evaluate(y, P, labels=CLASSES[:3], n_boot=0)
    with pytest.raises(ValueError, match="evaluations must name the models"):
        build_report(y, {"a": P}, labels=CLASSES[:3], evaluations={"b": exact}, n_boot=20)
    with pytest.raises(TypeError, match=r"evaluations\['a'\] must be an Evaluation"):
        build_report(y, {"a": P}, labels=CLASSES[:3], evaluations={"a": exact.scores}, n_boot=20)
    with pytest.raises(ValueError, match="population describes the rows of given evaluations"):
        build_report(y, {"a": P}, labels=CLASSES[:3], population={"n_samples": 1}, n_boot=20)


def test_ci_none_gives_no_interval_and_the_scores_of_scikit_learn():
    from sklearn.metrics import accuracy_score, roc_auc_score

    table = scored_rows(n=300, m=3, seed=7)
    classes = CLASSES[:3]
    found = evaluate(dd.from_pandas(table, npartitions=3), sample_weight_col="w", ci="none", n_boot=50)
    assert found.intervals == {} and found.settings["ci"] == "none" and found.settings["n_boot"] == 0
    predicted = np.array(classes)[table[classes].to_numpy().argmax(axis=1)]
    assert found.scores["accuracy"] == pytest.approx(
        accuracy_score(table["label"], predicted, sample_weight=table["w"])
    )
    assert found.scores["roc_auc_ovr_macro"] == pytest.approx(
        roc_auc_score(table["label"], table[classes], labels=classes, multi_class="ovr", sample_weight=table["w"])
    )


def test_cli_engine_dask_counts_one_file_in_the_singular(tmp_path, capsys):
    from polyroc.cli import main

    scored_rows(n=60, m=3, seed=13).to_parquet(tmp_path / "part-0.parquet", index=False)
    common = ["--weight-col", "w", "--ci", "none", "-q", "--engine", "dask", "--workers", "1"]
    assert main(["evaluate", "--scores", str(tmp_path / "part-*.parquet"), *common]) == 0
    assert "1 file, 3 classes, engine dask" in capsys.readouterr().out.splitlines()[0]
