"""The rows of several models' score files: matched by the index pandas writes or --id-col, never silently by position.

Files permuted within their classes keep every label in place, so only the
paired comparison of the models can tell mispaired rows: the oracle is the
run on the unpermuted files, and scikit-learn on the arrays for each model.
"""

import json

import numpy as np
import pytest
from sklearn.metrics import f1_score

from polyroc.cli import main
from polyroc.io._row_ids import row_orders

pytestmark = pytest.mark.slow  # runs the command line on files: not in the quick run (-m "not slow")

pd = pytest.importorskip("pandas")

CLASSES = ["ei", "ie", "n"]


def _models(n=150, seed=0):
    """Labels and two models' probabilities of the same rows (columns in CLASSES order)."""
    rng = np.random.default_rng(seed)
    k = np.arange(n) % 3
    first = rng.dirichlet(np.ones(3), n) * 0.6 + 0.4 * np.eye(3)[k]
    second = rng.dirichlet(np.ones(3), n) * 0.8 + 0.2 * np.eye(3)[k]
    return np.array(CLASSES)[k], first, second


def _within_classes(y, seed=1):
    """A permutation of the rows that moves each row to another row of its class."""
    rng = np.random.default_rng(seed)
    order = np.arange(y.size)
    for c in CLASSES:
        rows = np.flatnonzero(y == c)
        order[rows] = rng.permutation(rows)
    return order


def _write(path, y, scores, order=None, index=True):
    frame = pd.DataFrame(scores, columns=CLASSES).assign(label=y)
    frame = frame if order is None else frame.iloc[order]
    frame.to_csv(path, index=index)  # the index pandas writes: an unnamed first column of row ids
    return path


def _report(tmp_path, out, first, second, *more):
    argv = ["report", "--scores", f"a={first}", "--scores", f"b={second}", "--n-boot", "20", "-q", *more]
    code = main([*argv, "--out", str(tmp_path / out)])
    return code, (json.loads((tmp_path / out / "results.json").read_text()) if code == 0 else None)


@pytest.fixture
def files(tmp_path):
    y, first, second = _models()
    order = _within_classes(y)
    assert np.array_equal(y[order], y) and not np.array_equal(order, np.arange(y.size))
    return {
        "y": y,
        "first": first,
        "second": second,
        "a": _write(tmp_path / "a.csv", y, first),
        "b": _write(tmp_path / "b.csv", y, second),
        "b_permuted": _write(tmp_path / "b_permuted.csv", y, second, order),
        "a_plain": _write(tmp_path / "a_plain.csv", y, first, index=False),
        "b_plain": _write(tmp_path / "b_plain.csv", y, second, index=False),
        "b_permuted_plain": _write(tmp_path / "b_permuted_plain.csv", y, second, order, index=False),
    }


def test_rows_permuted_within_classes_are_matched_by_the_pandas_index(files, tmp_path, capsys):
    code, unpermuted = _report(tmp_path, "unpermuted", files["a"], files["b"])
    assert code == 0, capsys.readouterr().err
    code, permuted = _report(tmp_path, "permuted", files["a"], files["b_permuted"])
    assert code == 0, capsys.readouterr().err
    for name, scores in (("a", files["first"]), ("b", files["second"])):
        expected = f1_score(files["y"], np.array(CLASSES)[scores.argmax(axis=1)], average="macro")
        assert permuted["models"][name]["metrics"]["scores"]["f1_macro"] == pytest.approx(expected, abs=1e-12)
    assert permuted["models"] == unpermuted["models"]
    for paired in ("paired_tests", "model_comparison"):  # on the same rows, paired
        assert permuted[paired] == unpermuted[paired]


def test_files_without_ids_are_refused_naming_id_col(files, tmp_path, capsys):
    code, _ = _report(tmp_path, "refused", files["a_plain"], files["b_permuted_plain"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a_plain.csv" in err and "b_permuted_plain.csv" in err
    assert "carry no id column" in err and '--id-col NAME, or pass --id-col ""' in err
    assert not (tmp_path / "refused").exists()


def test_id_col_empty_pairs_rows_by_position(files, tmp_path, capsys):
    code, indexed = _report(tmp_path, "indexed", files["a"], files["b"])
    assert code == 0, capsys.readouterr().err
    code, by_position = _report(tmp_path, "by_position", files["a_plain"], files["b_plain"], "--id-col", "")
    assert code == 0, capsys.readouterr().err
    assert by_position["models"] == indexed["models"]
    assert by_position["paired_tests"] == indexed["paired_tests"]
    assert by_position["model_comparison"] == indexed["model_comparison"]
    # by position, as said: the permuted file is paired with the wrong rows, and the comparison shows it
    code, mispaired = _report(tmp_path, "mispaired", files["a"], files["b_permuted"], "--id-col", "")
    assert code == 0, capsys.readouterr().err
    assert mispaired["paired_tests"] != indexed["paired_tests"]


def test_files_some_with_the_index_some_without_are_refused(files, tmp_path, capsys):
    code, _ = _report(tmp_path, "refused", files["a"], files["b_plain"])
    assert code == 2
    err = capsys.readouterr().err
    assert "['" in err and "b_plain.csv'] carry no id column" in err and "a.csv'] carry one" in err
    assert "--id-col" in err


def test_differing_or_repeated_ids_are_refused_naming_the_files(files, tmp_path, capsys):
    y, second = files["y"], files["second"]
    fewer = tmp_path / "fewer.csv"
    pd.DataFrame(second, columns=CLASSES).assign(label=y).iloc[3:].to_csv(fewer)
    code, _ = _report(tmp_path, "fewer", files["a"], fewer)
    assert code == 2
    err = capsys.readouterr().err
    assert "fewer.csv: the unnamed first column (the index pandas writes): 3 ids of" in err and "a.csv" in err
    repeated = tmp_path / "repeated.csv"
    frame = pd.DataFrame(second, columns=CLASSES).assign(label=y)
    frame.index = np.r_[0, np.arange(y.size - 1)]
    frame.to_csv(repeated)
    code, _ = _report(tmp_path, "repeated", files["a"], repeated)
    assert code == 2
    assert "repeated.csv: id '0' appears more than once" in capsys.readouterr().err


def test_the_rule_on_arrays():
    ids = np.array(["r2", "r0", "r1"])
    orders = row_orders([np.array(["r0", "r1", "r2"]), ids], ["a", "b"], None, "--scores")
    assert orders[0] is None and ids[orders[1]].tolist() == ["r0", "r1", "r2"]
    assert row_orders([None, None], ["a", "b"], "", "--scores") == [None, None]
    assert row_orders([None], ["a"], None, "--scores") == [None]
    with pytest.raises(ValueError, match=r"--scores: the rows of 2 files cannot be matched: \['a', 'b'\]"):
        row_orders([None, None], ["a", "b"], None, "--scores")


def test_parquet_files_carry_the_pandas_index_as_csv_files_do(files, tmp_path, capsys):
    pytest.importorskip("pyarrow")
    y, first, second = files["y"], files["first"], files["second"]
    order = _within_classes(y)
    frames = {
        name: pd.DataFrame(scores, columns=CLASSES).assign(label=y) for name, scores in (("a", first), ("b", second))
    }
    frames["a"].to_parquet(tmp_path / "a.parquet")  # a RangeIndex: kept in the file's metadata only
    frames["b"].iloc[order].to_parquet(tmp_path / "b.parquet")  # a permuted index: a column of the file
    code, from_parquet = _report(tmp_path, "parquet", tmp_path / "a.parquet", tmp_path / "b.parquet")
    assert code == 0, capsys.readouterr().err
    code, unpermuted = _report(tmp_path, "csv", files["a"], files["b"])
    assert code == 0, capsys.readouterr().err
    assert from_parquet["paired_tests"] == unpermuted["paired_tests"]
    assert from_parquet["models"] == unpermuted["models"]
    frames["b"].iloc[order].to_parquet(tmp_path / "b_plain.parquet", index=False)
    code, _ = _report(tmp_path, "refused", tmp_path / "a.parquet", tmp_path / "b_plain.parquet")
    assert code == 2 and "b_plain.parquet'] carry no id column" in capsys.readouterr().err
