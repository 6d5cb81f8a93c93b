"""Prior shift: adjusting against Bayes' theorem, EM against plain loops and known priors, BBSE against a solve."""

import warnings

import numpy as np
import pytest

from polyroc.decisions import adjust_to_priors, estimate_priors
from polyroc.exceptions import ConvergenceWarning
from tests.decisions.cases import dirichlet_model, loop_em, posterior


def test_adjusting_is_bayes_theorem_at_the_new_priors():
    rng = np.random.default_rng(0)
    train, target = np.array([0.2, 0.3, 0.5]), np.array([0.6, 0.3, 0.1])
    _, x = dirichlet_model(rng, 1000, train)
    adjusted = adjust_to_priors(posterior(x, train), train_priors=train, target_priors=target)
    np.testing.assert_allclose(adjusted, posterior(x, target), rtol=1e-12, atol=1e-15)


def test_adjusting_is_the_formula_with_priors_keyed_by_class():
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(3), size=50)
    train, target = np.array([0.5, 0.25, 0.25]), np.array([0.0, 0.5, 0.5])
    expected = P * target / train
    expected /= expected.sum(axis=1, keepdims=True)
    got = adjust_to_priors(
        P, train_priors={"b": 0.25, "a": 0.5, "c": 0.25}, target_priors=target, labels=["a", "b", "c"]
    )
    np.testing.assert_allclose(got, expected, rtol=1e-14)


def test_em_is_the_fixed_point_of_a_plain_loop():
    rng = np.random.default_rng(2)
    P = rng.dirichlet(np.full(3, 0.7), size=60)
    train = np.array([0.2, 0.5, 0.3])
    estimate = estimate_priors(P, train_priors=train, n_boot=None)
    assert estimate.converged and estimate.method == "em"
    np.testing.assert_allclose(estimate.priors, loop_em(P.tolist(), train.tolist()), atol=1e-10)


@pytest.mark.parametrize("m", [3, 6])
def test_em_recovers_known_priors_on_large_shifted_data(m):
    rng = np.random.default_rng(m)
    train, target = np.full(m, 1 / m), rng.dirichlet(np.full(m, 2.0))
    _, x = dirichlet_model(rng, 100_000, target)
    estimate = estimate_priors(posterior(x, train), train_priors=train, n_boot=None)
    # the sampling error of class shares alone is sqrt(p (1 - p) / n) <= 0.0016; EM's is a few times that
    np.testing.assert_allclose(estimate.priors, target, atol=0.01)


def _validation_solve(y_val, val_decisions, test_decisions, m):
    """BBSE by numpy.linalg.solve: C[j, i] = share of validation rows of class i decided j, C w = mu."""
    joint = np.array([[np.mean((val_decisions == j) & (y_val == i)) for i in range(m)] for j in range(m)])
    mu = np.array([np.mean(test_decisions == j) for j in range(m)])
    weights = np.linalg.solve(joint, mu)
    return weights * np.array([np.mean(y_val == i) for i in range(m)])


def test_bbse_is_the_solution_of_the_validation_system():
    rng = np.random.default_rng(4)
    train, target = np.array([0.3, 0.3, 0.4]), np.array([0.1, 0.6, 0.3])
    y_val, x_val = dirichlet_model(rng, 3000, train)
    _, x = dirichlet_model(rng, 4000, target)
    val_scores, scores = posterior(x_val, train), posterior(x, train)
    expected = _validation_solve(y_val, val_scores.argmax(1), scores.argmax(1), 3)
    assert np.all(expected > 0)
    estimate = estimate_priors(scores, method="bbse", y_val=y_val, val_scores=val_scores, n_boot=None)
    np.testing.assert_allclose(estimate.priors, expected, rtol=1e-12)
    assert not estimate.settings["clipped"]
    np.testing.assert_allclose(estimate.priors, target, atol=0.05)


def test_bbse_clips_negative_priors_to_zero_and_rescales():
    # validation: class 0 decided 0 in 90%, class 1 decided 1 in 90%; deployment decides 0 in 5% only
    y_val = np.repeat([0, 1], 100)
    val_decisions = np.concatenate([np.repeat([0, 1], [90, 10]), np.repeat([0, 1], [10, 90])])
    test_decisions = np.repeat([0, 1], [5, 95])
    raw = _validation_solve(y_val, val_decisions, test_decisions, 2)
    assert raw[0] < 0
    expected = np.clip(raw, 0, None) / np.clip(raw, 0, None).sum()
    estimate = estimate_priors(
        np.eye(2)[test_decisions],
        method="bbse",
        y_val=y_val,
        val_scores=np.eye(2)[val_decisions],
        n_boot=50,
        random_state=0,
    )
    np.testing.assert_allclose(estimate.priors, expected, atol=1e-15)
    assert estimate.settings["clipped"] and "set to 0" in estimate._repr_html_()


def test_intervals_name_their_bootstrap_and_bracket_the_estimate():
    rng = np.random.default_rng(5)
    train, target = np.full(3, 1 / 3), np.array([0.5, 0.3, 0.2])
    y_val, x_val = dirichlet_model(rng, 800, train)
    _, x = dirichlet_model(rng, 800, target)
    scores = posterior(x, train)
    em = estimate_priors(scores, train_priors=train, n_boot=100, random_state=0)
    bbse = estimate_priors(
        scores, method="bbse", y_val=y_val, val_scores=posterior(x_val, train), n_boot=100, random_state=0
    )
    for estimate, words in ((em, "deployment rows"), (bbse, "validation rows within each class")):
        assert sorted(estimate.intervals) == [0, 1, 2]
        for c, interval in estimate.intervals.items():
            assert "percentile bootstrap" in interval.method and words in interval.method
            assert interval.n_boot == 100 and interval.confidence == 0.95
            assert interval.low < estimate.priors[c] < interval.high
    again = estimate_priors(scores, train_priors=train, n_boot=100, random_state=0)
    assert [again.intervals[c].low for c in range(3)] == [em.intervals[c].low for c in range(3)]
    frame = em.to_frame()
    assert frame["class"].tolist() == [0, 1, 2] and frame["prior"].sum() == pytest.approx(1)
    assert em.to_text().splitlines()[0].startswith("Priors by em")


def test_em_that_stops_early_warns_and_says_so():
    rng = np.random.default_rng(6)
    P = rng.dirichlet(np.ones(3), size=200)
    with pytest.warns(ConvergenceWarning, match="did not converge in 3 iterations"):
        estimate = estimate_priors(P, train_priors=[0.2, 0.3, 0.5], max_iter=3, n_boot=None)
    assert not estimate.converged and "did not converge" in estimate._repr_html_()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert estimate_priors(P, train_priors=[0.2, 0.3, 0.5], n_boot=None).converged


@pytest.mark.slow
def test_the_intervals_cover_known_priors_about_as_often_as_they_say():
    # 150 simulated data sets, 3 classes: 450 intervals per method; 95% nominal, binomial sd ~0.01
    covered = {"em": [], "bbse": []}
    for index in range(150):
        rng = np.random.default_rng([7, index])
        train, target = np.full(3, 1 / 3), rng.dirichlet(np.full(3, 2.0))
        y_val, x_val = dirichlet_model(rng, 500, train)
        _, x = dirichlet_model(rng, 500, target)
        scores = posterior(x, train)
        estimates = {
            "em": estimate_priors(scores, train_priors=train, n_boot=200, random_state=index),
            "bbse": estimate_priors(
                scores,
                method="bbse",
                y_val=y_val,
                val_scores=posterior(x_val, train),
                n_boot=200,
                random_state=index,
            ),
        }
        for name, estimate in estimates.items():
            covered[name] += [estimate.intervals[c].low <= target[c] <= estimate.intervals[c].high for c in range(3)]
    for name, hits in covered.items():
        assert 0.9 <= np.mean(hits) <= 0.99, name
