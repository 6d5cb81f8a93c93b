"""One rule orders and matches class names across files: integers in numeric order, else text order."""

from __future__ import annotations

import json

import numpy as np
import pytest

from polyroc._class_names import class_order
from polyroc.cli import main
from polyroc.thresholds import apply_thresholds

pytestmark = pytest.mark.slow  # reports and dask clusters: not in the quick run (-m "not slow")

pd = pytest.importorskip("pandas")

SIZES = [2, 10, 11, 12, 100]


def _names(kind, m):
    if kind == "integer":
        return [str(j) for j in range(m)]
    if kind == "negative":
        return [str(j - m // 2) for j in range(m)]
    if kind == "text":
        return [f"class {j}" for j in range(m)]
    if kind == "mixed":  # integer-looking names and one that is not: all are text
        return [str(j) for j in range(m - 1)] + ["other"]
    assert kind == "padded"  # "07" is not an integer written plainly
    return [f"{j:02d}" for j in range(m)]


def _canonical(kind, names):
    """The order a user expects, written independently of the rule's code."""
    if kind in ("integer", "negative"):
        return sorted(int(name) for name in names)
    return sorted(names)


@pytest.mark.parametrize("m", SIZES)
@pytest.mark.parametrize("kind", ["integer", "negative", "text", "mixed", "padded"])
def test_the_rule_orders_any_column_order_the_same_way(kind, m):
    names = _names(kind, m)
    rng = np.random.default_rng(m)
    for shuffled in (names, sorted(names), [names[j] for j in rng.permutation(m)]):
        rule = class_order(shuffled)
        assert rule.classes.tolist() == _canonical(kind, names)
        assert [shuffled[j] for j in rule.order] == [str(c) for c in rule.classes]


def _scores(m, n, seed):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % m
    scores = rng.dirichlet(np.ones(m), n)
    scores[np.arange(n), y] += 0.3
    return y, scores / scores.sum(axis=1, keepdims=True)


def _write(path, names, y, scores, columns):
    """A score file written as pandas users write one, its columns in ``columns`` order."""
    frame = pd.DataFrame(scores, columns=names)[columns].assign(label=[names[k] for k in y])
    if path.suffix == ".parquet":
        pytest.importorskip("pyarrow")
        frame.to_parquet(path, index=False)
    else:
        frame.to_csv(path, index=False)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("m", SIZES)
@pytest.mark.parametrize("kind", ["integer", "text", "mixed"])
def test_tune_then_apply_match_classes_by_name(tmp_path, kind, m, suffix):
    names = _names(kind, m)
    y_val, val = _scores(m, 3 * m, seed=1)
    y_test, test = _scores(m, 2 * m, seed=2)
    rng = np.random.default_rng(m)
    _write(tmp_path / f"val{suffix}", names, y_val, val, names)  # as written: 0, 1, 2, ..., 11
    _write(tmp_path / f"test{suffix}", names, y_test, test, [names[j] for j in rng.permutation(m)])
    tune = ["tune", "--scores", str(tmp_path / f"val{suffix}"), "--out", str(tmp_path / "tau.json"), "-q"]
    assert main([*tune, "--search", "random", "--n-samples", "30"]) == 0
    tau = json.loads((tmp_path / "tau.json").read_text())
    expected_order = [str(c) for c in _canonical(kind, names)]
    assert tau["classes"] == expected_order
    out = tmp_path / "predictions.csv"
    assert main(["apply", "--scores", str(tmp_path / f"test{suffix}"), "--tau", str(tmp_path / "tau.json"),
                 "--out", str(out), "-q"]) == 0  # fmt: skip
    in_order = [names.index(name) for name in expected_order]
    expected = apply_thresholds(test[:, in_order], tau["threshold"], labels=expected_order)
    assert out.read_text().splitlines()[1:] == [str(p) for p in expected]


@pytest.mark.parametrize("m", [11, 12])
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_report_reads_integer_classes_written_by_pandas(tmp_path, m, suffix, capsys):
    """Test and validation files of 11+ integer classes, written the same way, make a report."""
    names = _names("integer", m)
    y_test, test = _scores(m, 4 * m, seed=3)
    y_val, val = _scores(m, 4 * m, seed=4)
    _write(tmp_path / f"test{suffix}", names, y_test, test, names)
    _write(tmp_path / f"val{suffix}", names, y_val, val, names[::-1])
    args = ["report", "--scores", str(tmp_path / f"test{suffix}"), "--val", str(tmp_path / f"val{suffix}")]
    assert main([*args, "--out", str(tmp_path / "r"), "--n-boot", "20", "-q"]) == 0
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert [str(c) for c in results["data"]["classes"]] == names  # numeric order
    accuracy = results["models"]["test"]["metrics"]["intervals"]["accuracy"]["estimate"]
    assert accuracy == pytest.approx(np.mean(test.argmax(axis=1) == y_test), abs=1e-12)


def test_files_naming_different_classes_are_refused_with_both_sets(tmp_path, capsys):
    y, scores = _scores(3, 12, seed=5)
    _write(tmp_path / "test.csv", ["a", "b", "c"], y, scores, ["c", "a", "b"])
    _write(tmp_path / "val.csv", ["a", "b", "d"], y, scores, ["a", "b", "d"])
    args = ["report", "--scores", str(tmp_path / "test.csv"), "--val", str(tmp_path / "val.csv")]
    assert main([*args, "--out", str(tmp_path / "r"), "-q"]) == 2
    assert (
        "--val score columns ['a', 'b', 'd'] are not the classes of --scores ['a', 'b', 'c']" in capsys.readouterr().err
    )
    assert not (tmp_path / "r").exists()


def test_report_on_dask_reads_integer_classes_and_pairs_models_by_position(tmp_path):
    pytest.importorskip("distributed")
    names = _names("integer", 12)
    y_test, test = _scores(12, 48, seed=6)
    y_val, val = _scores(12, 48, seed=7)
    _write(tmp_path / "test.csv", names, y_test, test, names)
    _write(tmp_path / "val.csv", names, y_val, val, names)
    args = ["report", "--scores", str(tmp_path / "test.csv"), "--val", str(tmp_path / "val.csv"), "--engine", "dask"]
    assert main([*args, "--workers", "1", "--out", str(tmp_path / "r"), "--n-boot", "20", "-q"]) == 0
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert [str(c) for c in results["data"]["classes"]] == names
    assert results["models"]["test"]["tuning"] is not None
