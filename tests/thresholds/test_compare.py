"""compare_rules against scikit-learn scores of each rule's predictions, and the Table 4 identities."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc.datasets import load_glass
from polyroc.thresholds import apply_thresholds
from polyroc.thresholds.clouds import roc_cloud
from polyroc.thresholds.compare import compare_rules
from polyroc.thresholds.competing import ordinal_distance


def _problem(seed, n=400, m=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    P = rng.dirichlet(np.ones(m), n) * 0.6 + 0.4 * rng.dirichlet(np.ones(m) * 0.3, n)
    P[np.arange(n), y] += 0.3
    P /= P.sum(axis=1, keepdims=True)
    return y[: n // 2], P[: n // 2], y[n // 2 :], P[n // 2 :]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("metric", ["accuracy", "f1_macro"])
def test_columns_equal_sklearn_scores_of_each_rule(seed, metric):
    y_val, P_val, y_test, P_test = _problem(seed)
    table = compare_rules(y_test, P_test, y_val=y_val, val_scores=P_val, metric=metric, resolution=24)
    sk = (
        (lambda y, p: accuracy_score(y, p))
        if metric == "accuracy"
        else (lambda y, p: f1_score(y, p, average="macro", labels=range(4), zero_division=0))
    )
    for split, y, P in (("validation", y_val, P_val), ("test", y_test, P_test)):
        row = table.rows[split]
        assert row["argmax"] == pytest.approx(sk(y, P.argmax(1)), abs=1e-12)
        tuned = apply_thresholds(P, table.tuning.best_threshold)
        assert row["tuned"] == pytest.approx(sk(y, tuned), abs=1e-12)
        assert row["frechet"] == pytest.approx(row["argmax"], abs=1e-12)  # complete graph = argmax
    assert table.rows["validation"]["tuned"] >= table.rows["validation"]["argmax"]


@pytest.mark.parametrize("seed", range(4))
def test_table4_consistency_identities(seed):
    # inflated-argmax sets contain the argmax, so these hold for accuracy
    y_val, P_val, y_test, P_test = _problem(seed)
    table = compare_rules(y_test, P_test, y_val=y_val, val_scores=P_val, eps=0.1, resolution=12)
    for row in table.rows.values():
        assert row["singleton"] <= row["argmax"] <= row["coverage"]
        assert row["coverage"] - row["singleton"] <= row["avg_set_size"] - 1 + 1e-12
        assert row["argmax"] - row["singleton"] <= row["avg_set_size"] - 1 + 1e-12


def test_ordinal_frechet_column_and_text_rendering():
    y_val, P_val, y_test, P_test = _problem(7)
    table = compare_rules(y_test, P_test, y_val=y_val, val_scores=P_val, distances=ordinal_distance(4), resolution=8)
    D2 = ordinal_distance(4) ** 2
    expected = f1_score(y_test, np.argmin(P_test @ D2, axis=1), labels=np.arange(4), average="macro", zero_division=0)
    assert table.rows["test"]["frechet"] == pytest.approx(expected, abs=1e-12)
    text = table.to_text()
    assert text.splitlines()[1].split() == ["split", *table.rows["test"].keys()]
    assert f"{table.rows['test']['frechet']:.4f}" in text


def test_glass_tuned_on_validation_applied_to_test_with_dfp():
    glass = load_glass()
    X_rest, X_test, y_rest, y_test = train_test_split(
        glass.data, glass.target, test_size=0.3, stratify=glass.target, random_state=0
    )
    X_train, X_val, y_train, y_val = train_test_split(X_rest, y_rest, test_size=0.4, stratify=y_rest, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)).fit(X_train, y_train)
    P_val, P_test = model.predict_proba(X_val), model.predict_proba(X_test)
    table = compare_rules(
        y_test,
        P_test,
        y_val=y_val,
        val_scores=P_val,
        metric="balanced_accuracy",
        labels=model.classes_,
        search="random",
        n_samples=5000,
        random_state=0,
    )
    assert table.rows["validation"]["tuned"] >= table.rows["validation"]["argmax"]
    tuned_test = table.tuning.predict(P_test)
    assert table.rows["test"]["tuned"] == pytest.approx(balanced_accuracy_score(y_test, tuned_test))
    cloud = roc_cloud(y_test, P_test, labels=model.classes_, search="random", n_samples=2000, random_state=0)
    assert np.all((cloud.dfp >= 0) & (cloud.dfp <= 2)) and 0 < cloud.dfp_overall < 1


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"eps": 0}, ValueError, r"eps must be a real number in \(0, inf\); got 0$"),
        ({"distances": np.ones((3, 3))}, ValueError, r"distances must have shape \(4, 4\)"),
        ({"metric": "nope"}, ValueError, "nope"),
    ],
)
def test_errors(kwargs, error, match):
    y_val, P_val, y_test, P_test = _problem(0)
    with pytest.raises(error, match=match):
        compare_rules(y_test, P_test, y_val=y_val, val_scores=P_val, **kwargs)


def _mixed(y):
    """The labels as a list whose first label is a string: ints and a str."""
    return [str(y[0]), *y[1:].tolist()]


@pytest.mark.parametrize(
    ("split", "change", "error", "match"),
    [
        ("validation", {"y_val": _mixed}, TypeError, r"^y_val mixes strings and numbers: Mix of label input types"),
        ("test", {"y_true": _mixed}, TypeError, r"^y_true mixes strings and numbers: Mix of label input types"),
        ("validation", {"val_sample_weight": 1e308}, ValueError, r"^val_sample_weight sums past the largest float64"),
        ("validation", {"val_sample_weight": -1.0}, ValueError, r"^val_sample_weight must be non-negative"),
        ("test", {"sample_weight": 1e308}, ValueError, r"^sample_weight sums past the largest float64"),
    ],
)
def test_errors_name_the_validation_arguments_as_given(split, change, error, match):
    """The validation labels and weights are y_val and val_sample_weight in the messages, not y_true, sample_weight."""
    y_val, P_val, y_test, P_test = _problem(0)
    arguments = {"y_true": y_test, "y_score": P_test, "y_val": y_val, "val_scores": P_val}
    ((name, value),) = change.items()
    rows = (y_val if split == "validation" else y_test).size
    arguments[name] = value(arguments[name]) if callable(value) else np.full(rows, value)
    with pytest.raises(error, match=match):
        compare_rules(**arguments)


@pytest.mark.parametrize(
    ("digits", "error", "match"),
    [
        ("2", TypeError, r"^digits must be an int in \[0, inf\); got str '2'$"),
        (2.5, TypeError, r"^digits must be an int in \[0, inf\); got float 2.5$"),
        (True, TypeError, r"^digits must be an int in \[0, inf\); got bool True$"),
        (-1, ValueError, r"^digits must be an int in \[0, inf\); got -1$"),
    ],
)
def test_to_text_refuses_a_bad_digits(digits, error, match):
    y_val, P_val, y_test, P_test = _problem(0, n=80)
    table = compare_rules(y_test, P_test, y_val=y_val, val_scores=P_val, resolution=6)
    with pytest.raises(error, match=match):
        table.to_text(digits)
    assert "0.0" not in table.to_text(0).splitlines()[2]  # 0 decimals is valid: whole numbers


@pytest.mark.parametrize(
    ("distances", "error", "match"),
    [
        (np.full((4, 4), np.nan), ValueError, "^distances contains NaN or infinity"),
        (-np.ones((4, 4)), ValueError, "^distances must be non-negative"),
        ([["a"] * 4] * 4, TypeError, "^distances must be numeric"),
        (np.ones((4, 5)), ValueError, r"^distances must have shape \(4, 4\)"),
    ],
)
def test_distances_are_checked_before_the_tuning(monkeypatch, distances, error, match):
    y_val, P_val, y_test, P_test = _problem(0, n=80)

    def no_tuning(*args, **kwargs):
        raise AssertionError("the tuning ran before distances was checked")

    monkeypatch.setattr("polyroc.thresholds.compare.tune_thresholds", no_tuning)
    with pytest.raises(error, match=match):
        compare_rules(y_test, P_test, y_val=y_val, val_scores=P_val, distances=distances)


def test_test_labels_outside_validation_classes():
    y_val, P_val, y_test, P_test = _problem(0)
    with pytest.raises(ValueError, match=r"y_true contains labels not in labels: \[9\]"):
        compare_rules(np.where(y_test == 0, 9, y_test), P_test, y_val=y_val, val_scores=P_val)
