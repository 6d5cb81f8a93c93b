"""Reading score files: the documented format and each documented error."""

import numpy as np
import pytest

from polyroc.io import read_scores


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
        ("a,b,label\n0.5,oops,a\n", {}, "non-numeric score 'oops' in column 'b', row 2"),
        ("a,b,label\n0.5,0.5\n", {}, "row 2 has 2 fields, the header has 3"),
        ("a,b,label\n0.5,0.5,c\n", {}, r"labels \['c'\] in column 'label' are not score column names"),
        ("a,b,label\n0.5,0.5,a\n", {"score_columns": ["a", "z"]}, r"score columns \['z'\] not found"),
    ],
)
def test_errors(tmp_path, text, kwargs, match):
    with pytest.raises(ValueError, match=match):
        read_scores(_write(tmp_path, text), **kwargs)


def test_missing_file(tmp_path):
    with pytest.raises(OSError):
        read_scores(tmp_path / "absent.csv")
