"""Reading score files: the documented format and each documented error."""

import numpy as np
import pytest

from polyroc.io import atomic_write, read_scores, read_thresholds


def _write(tmp_path, text, name="scores.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_reads_scores_labels_and_ids(tmp_path):
    path = _write(tmp_path, "id,cat,dog,label\n7,0.9,0.1,cat\n8,0.3,0.7,dog\n9,0.5,0.5,dog\n")
    table = read_scores(path, id_col="id")
    assert table.classes == ("cat", "dog")
    assert table.y_true.tolist() == ["cat", "dog", "dog"]
    np.testing.assert_array_equal(table.y_score, [[0.9, 0.1], [0.3, 0.7], [0.5, 0.5]])
    assert table.ids.tolist() == ["7", "8", "9"]


def test_explicit_score_columns_and_label_column(tmp_path):
    path = _write(tmp_path, "truth,b,a,extra\na,0.2,0.8,x\nb,0.6,0.4,y\n")
    table = read_scores(path, label_col="truth", score_columns=["a", "b"])
    assert table.classes == ("a", "b")
    np.testing.assert_array_equal(table.y_score, [[0.8, 0.2], [0.4, 0.6]])


@pytest.mark.parametrize(
    "text, kwargs, match",
    [
        ("a,b,label\n", {}, "expected a header row and at least one data row"),
        ("a,b,y\n0.5,0.5,a\n", {}, "no label column 'label'"),
        ("a,b,label\n0.5,0.5,a\n", {"id_col": "id"}, "no id column 'id'"),
        ("a,label\n1.0,a\n", {}, "need at least 2 score columns"),
        ("a,b,label\n0.5,oops,a\n", {}, "non-numeric score 'oops' in column 'b', data row 1"),
        ("a,b,label\n0.5,0.5\n", {}, "data row 1 has 2 fields, the header has 3"),
        ("a,b,label\n0.5,0.5,c\n", {}, r"labels \['c'\] in column 'label' are not class names"),
        ("a,b,label\n0.5,0.5,a\n", {"score_columns": ["a", "z"]}, r"score columns \['z'\] not found"),
    ],
)
def test_errors(tmp_path, text, kwargs, match):
    with pytest.raises(ValueError, match=match):
        read_scores(_write(tmp_path, text), **kwargs)


def test_missing_file(tmp_path):
    with pytest.raises(OSError):
        read_scores(tmp_path / "absent.csv")


def test_without_label_column(tmp_path):
    table = read_scores(_write(tmp_path, "a,b\n0.5,0.5\n0.1,0.9\n"), label_col=None)
    assert table.y_true is None and table.classes == ("a", "b")


def test_npz_round_trip(tmp_path):
    path = tmp_path / "scores.npz"
    np.savez(path, scores=np.array([[0.2, 0.8], [0.6, 0.4]]), classes=np.array(["x", "y"]),
             labels=np.array(["y", "x"]), ids=np.array([10, 11]))
    table = read_scores(path)
    assert table.classes == ("x", "y") and table.y_true.tolist() == ["y", "x"]
    assert table.ids.tolist() == ["10", "11"]
    np.testing.assert_array_equal(table.y_score, [[0.2, 0.8], [0.6, 0.4]])


def test_npz_errors(tmp_path):
    path = tmp_path / "bad.npz"
    np.savez(path, scores=np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"lacks arrays \['classes'\]"):
        read_scores(path)
    np.savez(path, scores=np.ones((2, 3)), classes=np.array(["a", "b"]), labels=np.array(["a", "b"]))
    with pytest.raises(ValueError, match=r"scores must be \(n, 2\), got \(2, 3\)"):
        read_scores(path)


def test_unknown_suffix(tmp_path):
    with pytest.raises(ValueError, match="unknown file type '.xlsx'"):
        read_scores(tmp_path / "scores.xlsx")


def test_atomic_write_leaves_old_file_on_failure(tmp_path):
    path = tmp_path / "out.txt"
    atomic_write(path, "old")

    with pytest.raises(TypeError):
        atomic_write(path, 12345)  # neither str nor bytes: the write fails
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_read_thresholds_errors(tmp_path):
    path = _write(tmp_path, "not json", "tau.json")
    with pytest.raises(ValueError, match="not a thresholds JSON file"):
        read_thresholds(path)
    path = _write(tmp_path, '{"classes": ["a"], "threshold": [0.5, 0.5], "domain": "simplex"}', "t.json")
    with pytest.raises(ValueError, match="different lengths"):
        read_thresholds(path)
