"""Reading score and threshold files: the documented format and each documented error."""

import json

import numpy as np
import pytest

from polyroc.io import read_scores, read_thresholds, write_predictions, write_thresholds


def _write(tmp_path, text, name="scores.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
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


PLAIN = "a,b,label\n0.25,0.75,b\n0.5,0.5,a\n"


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff" + PLAIN,  # a byte-order mark, as Excel writes
        PLAIN.replace("\n", "\r\n"),  # Windows line ends
        '"a","b","label"\n"0.25","0.75","b"\n0.5,0.5,"a"\n',  # quoted fields
        "a , b,label \n 0.25, 0.75 ,b\n\n0.5,0.5, a\n\n",  # spaces around fields, blank lines
    ],
)
def test_csv_dialect_variants_read_as_the_plain_file(tmp_path, text):
    plain = read_scores(_write(tmp_path, PLAIN, "plain.csv"))
    table = read_scores(_write(tmp_path, text))
    assert table.classes == plain.classes == ("a", "b")
    assert table.y_true.tolist() == plain.y_true.tolist() == ["b", "a"]
    np.testing.assert_array_equal(table.y_score, [[0.25, 0.75], [0.5, 0.5]])


@pytest.mark.parametrize(
    "text, kwargs, match",
    [
        ("", {}, "the file is empty"),
        ("a,b,label\n", {}, "a header row but no data rows"),
        ("a,b,y\n0.5,0.5,a\n", {}, "no label column 'label'"),
        ("a;b;label\n0.5;0.5;a\n", {}, "polyroc reads comma-separated files"),
        ("a,b,label\n0.5,0.5,a\n", {"id_col": "id"}, "no id column 'id'"),
        ("a,b,label\n0.5,0.5,a\n", {"id_col": "label"}, "the label column and the id column are both 'label'"),
        ("a,label\n1.0,a\n", {}, "need at least 2 score columns"),
        ("a,b,label\n0.5,0.5,a\n0.5,oops,b\n", {}, "non-numeric score 'oops' in column 'b', line 3"),
        ("a,b,label\n\n0.5,,a\n0.5,0.5,b\n", {}, "an empty score in column 'b', line 3"),
        ("a,b,label\n0.5,nan,a\n0.5,0.5,b\n", {}, "score nan in column 'b', line 2 is not a finite number"),
        ("a,b,label\n0.5,0.5,a\n-inf,1,b\n", {}, "score -inf in column 'a', line 3 is not a finite number"),
        ("a,b,label\n0.5,0.5\n", {}, "line 2 has 2 fields, the header has 3"),
        ("a,b,label\n0.5,0.5,a\n", {"weight_col": "w"}, "no weight column 'w'"),
        ("a,b,label\n0.5,0.5,a\n", {"weight_col": "label"}, "the label column and the weight column are both 'label'"),
        (
            "a,b,label,w\n0.5,0.5,a,1\n0.5,0.5,b,-2\n",
            {"weight_col": "w"},
            "weight -2.0 in column 'w', line 3 is not a finite number >= 0",
        ),
        (
            "a,b,label,w\n0.5,0.5,a,inf\n0.5,0.5,b,1\n",
            {"weight_col": "w"},
            "weight inf in column 'w', line 2 is not a finite",
        ),
        (
            "a,b,label,w\n0.5,0.5,a,heavy\n0.5,0.5,b,1\n",
            {"weight_col": "w"},
            "non-numeric weight 'heavy' in column 'w', line 2",
        ),
        ("a,b,label,w\n0.5,0.5,a,\n0.5,0.5,b,1\n", {"weight_col": "w"}, "an empty weight in column 'w', line 2"),
        (
            "a,b,label,w\n0.5,0.5,a,1e308\n0.5,0.5,b,1e308\n",  # each weight finite, their total not
            {"weight_col": "w"},
            r"weight column 'w' sums past the largest float64",
        ),
        (
            "a,b,label\n0.5,0.5,a\n0.5,0.5,c\n",
            {},
            r"labels \['c'\] in column 'label' are not class names \['a', 'b'\] \(first at line 3\)",
        ),
        ("a,b,label\n0.5,0.5,a\n", {"score_columns": ["a", "z"]}, r"score columns \['z'\] not found"),
        ("a,b,a,label\n0.1,0.2,0.7,a\n", {}, r"column name 'a' appears twice in the header \(columns 1 and 3\)"),
        ("a,b,label,label\n0.5,0.5,a,b\n", {}, "column name 'label' appears twice"),
        (b"a,b,label\n0.5,0.5,caf\xe9\n", {}, r"line 2 is not UTF-8 text \(byte 0xe9\)"),
        ("a,b,label\n0.5,0.5," + "x" * 200_000 + "\n", {}, "line 2: field larger than field limit"),
    ],
)
def test_errors_name_the_file_and_the_place(tmp_path, text, kwargs, match):
    path = _write(tmp_path, text)
    with pytest.raises(ValueError, match=match) as error:
        read_scores(path, **kwargs)
    assert str(error.value).startswith(f"{path}: ")


def test_missing_file_and_directory_are_os_errors_naming_the_path(tmp_path):
    with pytest.raises(FileNotFoundError) as error:
        read_scores(tmp_path / "absent.csv")
    assert error.value.filename == str(tmp_path / "absent.csv")
    (tmp_path / "folder.csv").mkdir()
    with pytest.raises(IsADirectoryError):
        read_scores(tmp_path / "folder.csv")


def test_without_label_column(tmp_path):
    table = read_scores(_write(tmp_path, "a,b\n0.5,0.5\n0.1,0.9\n"), label_col=None)
    assert table.y_true is None and table.classes == ("a", "b")


def test_npz_round_trip(tmp_path):
    path = tmp_path / "scores.npz"
    np.savez(
        path,
        scores=np.array([[0.2, 0.8], [0.6, 0.4]]),
        classes=np.array(["x", "y"]),
        labels=np.array(["y", "x"]),
        ids=np.array([10, 11]),
    )
    table = read_scores(path)
    assert table.classes == ("x", "y") and table.y_true.tolist() == ["y", "x"]
    assert table.ids.tolist() == ["10", "11"]
    np.testing.assert_array_equal(table.y_score, [[0.2, 0.8], [0.6, 0.4]])


def _two_row_table(tmp_path, kind):
    if kind == "csv":
        return read_scores(_write(tmp_path, "x,y,label\n0.2,0.8,y\n\n0.6,0.4,x\n"))
    path = tmp_path / "scores.npz"
    np.savez(path, scores=np.array([[0.2, 0.8], [0.6, 0.4]]), classes=np.array(["x", "y"]), labels=np.array(["y", "x"]))
    return read_scores(path)


@pytest.mark.parametrize(("kind", "first", "last"), [("csv", "line 2", "line 4"), ("npz", "row 1", "row 2")])
def test_where_refuses_rows_outside_the_table_whatever_the_format(tmp_path, kind, first, last):
    table = _two_row_table(tmp_path, kind)
    assert (table.where(np.int64(0)), table.where(1)) == (first, last)
    for row in (-1, 2, 10):
        with pytest.raises(IndexError, match=rf"row must be in \[0, 2\) \(the table has 2 rows\), got {row}"):
            table.where(row)
    for row in (1.0, True, "1"):
        with pytest.raises(TypeError, match="row must be an integer"):
            table.where(row)


@pytest.mark.parametrize(
    "arrays, match",
    [
        ({"scores": np.ones((2, 2))}, r"lacks arrays \['classes', 'labels'\]"),
        (
            {"scores": np.ones((2, 3)), "classes": np.array(["a", "b"]), "labels": np.array(["a", "b"])},
            r"scores must be \(n, 2\), got \(2, 3\)",
        ),
        (
            {"scores": np.ones((2, 2)) / 2, "classes": np.array(["a", "b"]), "labels": np.array(["a", "b", "a"])},
            r"array 'labels' must be \(2,\), got shape \(3,\)",
        ),
        (
            {"scores": np.ones((2, 2)) / 2, "classes": np.array(["a", "a"]), "labels": np.array(["a", "a"])},
            "column name 'a' appears twice",
        ),
        (
            {
                "scores": np.array([[0.5, np.nan], [0.5, 0.5]]),
                "classes": np.array(["a", "b"]),
                "labels": np.array(["a", "b"]),
            },
            "score nan in column 'b', row 1 is not a finite number",
        ),
        (
            {
                "scores": np.array([["x", "y"], ["z", "w"]]),
                "classes": np.array(["a", "b"]),
                "labels": np.array(["a", "b"]),
            },
            "array 'scores' must be numeric",
        ),
    ],
)
def test_npz_errors(tmp_path, arrays, match):
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match=match):
        read_scores(path)


@pytest.mark.parametrize(
    "content, match",
    [
        (b"PK\x03\x04 not really a zip file", "not a readable NPZ file"),
        (bytes(range(256)) * 3, "not a readable NPZ file"),
    ],
)
def test_damaged_npz_is_one_value_error_naming_the_file(tmp_path, content, match):
    path = _write(tmp_path, content, "scores.npz")
    with pytest.raises(ValueError, match=match) as error:
        read_scores(path)
    assert str(error.value).startswith(str(path))


def test_npy_array_saved_as_npz_is_named(tmp_path):
    path = tmp_path / "scores.npz"
    with path.open("wb") as handle:
        np.save(handle, np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"holds a single \.npy array, not an \.npz archive"):
        read_scores(path)


def test_unknown_suffix(tmp_path):
    with pytest.raises(ValueError, match=r"unknown file type '\.xlsx'"):
        read_scores(tmp_path / "scores.xlsx")


def test_read_thresholds_returns_the_checked_document(tmp_path):
    document = {"classes": ["a", "b", "c"], "threshold": [0.2, 0.3, 0.5], "domain": "simplex", "metric": "f1"}
    path = _write(tmp_path, json.dumps(document), "tau.json")
    assert read_thresholds(path) == document


@pytest.mark.parametrize(
    "text, error, match",
    [
        ("not json", ValueError, r"not a thresholds JSON file \(Expecting value at line 1, column 1\)"),
        ("[1, 2]", TypeError, "expected a JSON object, got list"),
        ('{"classes": ["a", "b"], "threshold": [0.5, 0.5]}', ValueError, r"lacks \['domain'\]"),
        ('{"classes": ["a"], "threshold": [1.0], "domain": "simplex"}', ValueError, "at least 2 class names"),
        ('{"classes": "ab", "threshold": [0.5, 0.5], "domain": "simplex"}', ValueError, "'classes' must be a list"),
        ('{"classes": ["a", "a"], "threshold": [0.5, 0.5], "domain": "simplex"}', ValueError, "'a' appears twice"),
        ('{"classes": ["a", null], "threshold": [0.5, 0.5], "domain": "simplex"}', ValueError, "must hold class names"),
        (
            '{"classes": ["a", "b"], "threshold": [0.5, 0.5, 0.0], "domain": "simplex"}',
            ValueError,
            r"different lengths \(2 and 3\)",
        ),
        ('{"classes": ["a", "b"], "threshold": ["x", 0.5], "domain": "simplex"}', ValueError, "finite numbers"),
        ('{"classes": ["a", "b"], "threshold": [NaN, 0.5], "domain": "simplex"}', ValueError, "finite numbers"),
        (
            '{"classes": ["a", "b"], "threshold": [0.5, 0.5], "domain": "boxx"}',
            ValueError,
            "'domain' must be 'simplex' or 'box', got 'boxx'",
        ),
        (
            '{"classes": ["a", "b"], "threshold": [0.6, 0.6], "domain": "simplex"}',
            ValueError,
            "must lie on the probability simplex",
        ),
    ],
)
def test_read_thresholds_errors_name_the_file(tmp_path, text, error, match):
    path = _write(tmp_path, text, "tau.json")
    with pytest.raises(error, match=match) as raised:
        read_thresholds(path)
    assert str(raised.value).startswith(f"{path}: ")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"ids": [7, 8, 9]}, ValueError, "predictions has 2, ids has 3"),
        ({"y_true": ["a"]}, ValueError, "predictions has 2, y_true has 1"),
        ({"ids": [[7, 8]]}, ValueError, r"ids must be 1-D \(one value per row\), got shape \(1, 2\)"),
    ],
)
def test_write_predictions_refuses_columns_of_another_length_before_writing(tmp_path, kwargs, error, match):
    path = tmp_path / "predictions.csv"
    with pytest.raises(error, match=match):
        write_predictions(path, ["a", "b"], **kwargs)
    assert not path.exists()


def test_write_predictions_refuses_predictions_that_are_not_1d(tmp_path):
    with pytest.raises(ValueError, match=r"predictions must be 1-D"):
        write_predictions(tmp_path / "predictions.csv", [["a", "b"], ["b", "a"]])


def test_write_thresholds_refuses_what_is_not_a_tuning_result(tmp_path):
    path = tmp_path / "tau.json"
    document = {"classes": ["a", "b"], "threshold": [0.5, 0.5], "domain": "simplex"}
    with pytest.raises(TypeError, match=r"result must be a TuningResult .*got dict"):
        write_thresholds(path, document)
    assert not path.exists()


def test_a_cost_tuning_is_written_with_its_direction(tmp_path):
    y = np.array([0, 1, 2, 0, 1, 2, 1, 0])
    P = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.3, 0.3, 0.4], [0.4, 0.4, 0.2]] * 2)
    costs = np.array([[0.0, 1.0, 1.0], [5.0, 0.0, 1.0], [2.0, 2.0, 0.0]])
    from polyroc.thresholds import tune_thresholds

    result = tune_thresholds(y, P, metric="expected_cost", cost_matrix=costs, resolution=10)
    write_thresholds(tmp_path / "tau.json", result)
    written = read_thresholds(tmp_path / "tau.json")
    assert written["metric"] == "expected_cost"
    assert written["greater_is_better"] is False
    # the written best score is the cost of the written thresholds, counted by hand
    decided = np.argmax(P - np.asarray(written["threshold"]), axis=1)
    assert written["best_score"] == pytest.approx(costs[y, decided].mean(), abs=1e-12)


def test_integer_class_names_in_thresholds_are_read_as_column_names(tmp_path):
    path = _write(tmp_path, '{"classes": [0, 1], "threshold": [0.5, 0.5], "domain": "simplex"}', "tau.json")
    assert read_thresholds(path)["classes"] == ["0", "1"]


def test_weight_column_is_read_and_is_not_a_score_column(tmp_path):
    path = _write(tmp_path, "w,a,b,label\n2,0.9,0.1,a\n0.5,0.3,0.7,b\n0,0.5,0.5,b\n")
    table = read_scores(path, weight_col="w")
    assert table.classes == ("a", "b")
    assert table.sample_weight.tolist() == [2.0, 0.5, 0.0]
    assert read_scores(path, score_columns=["a", "b"]).sample_weight is None


def test_npz_weight_array(tmp_path):
    path = tmp_path / "scores.npz"
    np.savez(
        path,
        scores=np.array([[0.2, 0.8], [0.6, 0.4]]),
        classes=np.array(["x", "y"]),
        labels=np.array(["y", "x"]),
        w=np.array([1, 3]),
        bad=np.array([1.0, -1.0]),
        short=np.ones(3),
        huge=np.array([1e308, 1e308]),
    )
    assert read_scores(path, weight_col="w").sample_weight.tolist() == [1.0, 3.0]
    assert read_scores(path).sample_weight is None
    for name, match in [
        ("absent", "lacks the weight array 'absent'"),
        ("short", r"must be \(2,\), got shape \(3,\)"),
        ("bad", "weight -1.0 in column 'bad', row 2 is not a finite number >= 0"),
        ("huge", "weight column 'huge' sums past the largest float64"),
    ]:
        with pytest.raises(ValueError, match=match):
            read_scores(path, weight_col=name)
