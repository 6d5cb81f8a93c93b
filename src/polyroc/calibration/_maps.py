"""Calibration maps fitted on validation scores: :func:`fit_calibrator` and the :class:`Calibrator` it returns.

Four maps turn a classifier's scores into calibrated probabilities:

- ``"temperature"``: ``softmax(z / T)`` with one temperature ``T > 0``;
- ``"vector"``: ``softmax(a * z + b)``, one scale and one intercept per class;
- ``"matrix"``: ``softmax(W z + b)``, a full linear map whose off-diagonal
  weights and intercepts are penalised (ODIR, Kull et al. 2019); on
  ``z = log p`` this is Dirichlet calibration;
- ``"isotonic"``: one-vs-rest isotonic regression of each class indicator on
  that class's score column, rows then rescaled to sum to 1.

``z`` are the logits: ``log p`` of probabilities (each probability clipped
below at the machine epsilon of float64 first, as :func:`polyroc.metrics.log_loss`
clips), or the scores themselves with ``from_logits=True``. The three linear
maps minimise the (weighted) mean log loss on the validation data, a convex
problem: the temperature by a root of the exact derivative in ``log T``, the
vector and matrix maps by a trust-region Newton method with the exact
gradient and Hessian.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq, isotonic_regression, minimize
from scipy.special import logsumexp, softmax

from polyroc._engine.parallel import chunk_map
from polyroc._results import Result, html_table, number_text
from polyroc._text import count_noun
from polyroc._validation import check_score_matrix, check_scores, score_column_names
from polyroc._validation._params import Interval, Options, validate_params
from polyroc._validation._scores import columns_in_class_order
from polyroc.metrics._scores import machine_epsilon, sample_log_losses

__all__ = ["Calibrator", "fit_calibrator"]

CalibrationMethod = Literal["temperature", "vector", "matrix", "isotonic"]
METHODS = ("temperature", "vector", "matrix", "isotonic")

#: Bounds of ``log T`` searched by the temperature fit (scikit-learn searches ``log(1/T)`` in the same interval).
LOG_TEMPERATURE_BOUNDS = (-10.0, 10.0)

#: Largest gradient norm of a converged vector or matrix map.
GRADIENT_TOLERANCE = 1e-9

#: Most Newton iterations of a vector or matrix fit.
MAX_ITERATIONS = 500

#: Cells (rows x classes) per block of the temperature fit's loss slope and of the maps' softmax (stays in cache).
TEMPERATURE_BLOCK_CELLS = 1 << 17

#: Rows per chunk when the Hessian is accumulated, so memory stays bounded for many rows.
HESSIAN_CHUNK_CELLS = 1 << 22

_EPS = machine_epsilon(np.dtype(np.float64))


@dataclass(frozen=True, eq=False, repr=False)
class Calibrator(Result):
    """A calibration map fitted on validation scores; :meth:`transform` applies it to new scores.

    Attributes
    ----------
    method : str
        ``"temperature"``, ``"vector"``, ``"matrix"`` or ``"isotonic"``.
    classes : ndarray of shape (n_classes,)
        The class order of the score columns.
    temperature : float or None
        T of the temperature map (calibrated logits ``z / T``); None for the other maps.
    coef : ndarray of shape (n_classes, n_classes) or None
        W of the linear maps (calibrated logits ``z @ W.T + intercept``): ``I / T``
        for the temperature, ``diag(a)`` for the vector map; None for isotonic.
    intercept : ndarray of shape (n_classes,) or None
        b of the linear maps (0 for the temperature); None for isotonic.
    knots, knot_values : tuple of ndarray or None
        Per class, the distinct validation scores of its column and the fitted
        isotonic values there; :meth:`transform` interpolates linearly between
        them and holds the end values outside. None for the linear maps.
    loss_before, loss_after : float
        (Weighted) mean log loss on the validation data of the scores as
        given (softmax of the logits with ``from_logits=True``) and of the
        calibrated probabilities, each clipped below at machine epsilon.
    converged : bool
        Whether the fit reached a zero gradient (for the temperature: a root
        inside the searched bounds of ``log T``); always True for isotonic.
    settings : dict
        ``"method"``, ``"from_logits"``, ``"reg_lambda"`` and ``"reg_mu"``
        (the last two None unless ``method="matrix"``).

    See Also
    --------
    fit_calibrator : Fit a calibrator.

    Examples
    --------
    >>> calibrator = fit_calibrator([0, 1, 1], [[0.6, 0.4], [0.3, 0.7], [0.45, 0.55]])
    >>> calibrator.method, calibrator.transform([[0.5, 0.5]]).tolist()
    ('temperature', [[0.5, 0.5]])
    """

    method: str
    classes: np.ndarray
    temperature: float | None
    coef: np.ndarray | None
    intercept: np.ndarray | None
    knots: tuple[np.ndarray, ...] | None
    knot_values: tuple[np.ndarray, ...] | None
    loss_before: float
    loss_after: float
    converged: bool
    settings: dict[str, Any]

    def transform(self, scores: ArrayLike) -> NDArray[np.float64]:
        """Calibrated probabilities of ``scores``, scores of the kind the calibrator was fitted on.

        Parameters
        ----------
        scores : array-like of shape (n_samples, n_classes)
            Probabilities (rows on the simplex), or logits if the calibrator
            was fitted with ``from_logits=True``; columns in the order of
            :attr:`classes`, or a DataFrame whose column names are the
            classes (taken by name, as in :func:`fit_calibrator`).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Rows of calibrated probabilities, each summing to 1.

        Raises
        ------
        ValueError
            If ``scores`` is not 2-D, has another number of columns than the
            calibrator has classes, holds NaN or infinity, or (probabilities)
            has negative values or rows that do not sum to 1.
        TypeError
            If ``scores`` is not numeric.

        See Also
        --------
        fit_calibrator : Fit the calibrator.

        Examples
        --------
        >>> calibrator = fit_calibrator([0, 1, 2, 2], [[5, 1, 0], [0, 4, 1], [1, 0, 3], [0, 1, 2]], from_logits=True)
        >>> calibrator.transform([[2.0, 0.0, 0.0]]).argmax(axis=1).tolist()
        [0]
        """
        logits_given = bool(self.settings["from_logits"])
        matrix = check_score_matrix(scores, name="scores", require_simplex=False)
        if matrix.shape[1] != self.classes.size:
            raise ValueError(
                f"scores has {count_noun(matrix.shape[1], 'column')} but the calibrator was fitted on "
                f"{count_noun(self.classes.size, 'class')}"
            )
        if not logits_given:
            check_score_matrix(matrix, name="scores")
        matrix = columns_in_class_order(matrix, score_column_names(scores), self.classes, "scores")
        return self._apply(matrix, logits_given)

    def _apply(self, matrix: np.ndarray, logits_given: bool) -> np.ndarray:
        """The map on checked scores (probabilities, or logits when ``logits_given``)."""
        if self.knots is not None and self.knot_values is not None:
            return _isotonic_probabilities(matrix, self.knots, self.knot_values)
        return self._map_logits(matrix if logits_given else _log_probabilities(matrix))

    def _map_logits(self, logits: np.ndarray) -> np.ndarray:
        """``softmax(logits @ coef.T + intercept)`` of a linear map, row block by row block.

        A diagonal ``coef`` (temperature and vector maps) scales the columns:
        each product of the matrix product is then one rounded product plus
        exact zeros, the same numbers as the product.
        """
        assert self.coef is not None and self.intercept is not None
        diagonal = np.diagonal(self.coef)
        if np.array_equal(self.coef, np.diag(diagonal)):
            calibrated = logits * diagonal
            calibrated += self.intercept
        else:
            calibrated = logits @ self.coef.T + self.intercept
        return _softmax_rows(calibrated)

    def to_text(self) -> str:
        """The map in a few plain lines: the method, its parameters and the validation losses.

        Returns
        -------
        str

        See Also
        --------
        to_frame : The per-class parameters as a DataFrame.

        Examples
        --------
        >>> calibrator = fit_calibrator([0, 1, 1], [[0.6, 0.4], [0.3, 0.7], [0.45, 0.55]])
        >>> calibrator.to_text().splitlines()[0]
        'Calibrator: temperature map on 2 classes'
        """
        lines = [f"Calibrator: {self.method} map on {count_noun(self.classes.size, 'class')}"]
        if self.temperature is not None:
            lines.append(f"temperature T = {number_text(self.temperature)}")
        for row in self._frame_rows() if self.temperature is None else []:
            cells = ", ".join(f"{key} {number_text(value)}" for key, value in row.items() if key != "class")
            lines.append(f"class {row['class']}: {cells}")
        lines.append(
            f"validation log loss {number_text(self.loss_before)} before, {number_text(self.loss_after)} after"
        )
        lines += self._view_notes()
        return "\n".join(lines)

    def _frame_rows(self) -> list[dict[str, Any]]:
        classes = self.classes.tolist()
        if self.knots is not None:
            return [{"class": label, "n_knots": int(knots.size)} for label, knots in zip(classes, self.knots)]
        assert self.coef is not None and self.intercept is not None
        return [
            {"class": label, "scale": float(self.coef[j, j]), "intercept": float(self.intercept[j])}
            for j, label in enumerate(classes)
        ]

    def _view_sections(self) -> list[str]:
        sections = super()._view_sections()
        if self.method == "matrix" and self.coef is not None:
            labels = [str(label) for label in self.classes.tolist()]
            rows = [[label, *self.coef[j]] for j, label in enumerate(labels)]
            sections.append(html_table(rows, ["W", *labels], caption="Linear map W (rows: calibrated logits)"))
        return sections

    def _view_notes(self) -> list[str]:
        if self.converged:
            return []
        if self.method == "temperature":
            return ["The temperature is at a bound of the search (log T in [-10, 10]): the loss decreases beyond it."]
        return [
            "The fit did not reach a zero gradient: the loss may have no finite minimum "
            "(e.g. a class without validation samples, or classes separated by the scores)."
        ]


@validate_params(
    {
        "method": [Options(METHODS)],
        "from_logits": ["boolean"],
        "reg_lambda": [Interval("real", 0, None, closed="left")],
        "reg_mu": [Interval("real", 0, None, closed="left")],
    }
)
def fit_calibrator(
    y_val: ArrayLike,
    val_scores: ArrayLike,
    *,
    method: CalibrationMethod = "temperature",
    labels: ArrayLike | None = None,
    from_logits: bool = False,
    sample_weight: ArrayLike | None = None,
    reg_lambda: float = 1e-3,
    reg_mu: float = 1e-3,
) -> Calibrator:
    r"""Fit a calibration map on validation labels and scores.

    The linear maps act on logits ``z``: ``log p`` of probabilities (each
    probability clipped below at the machine epsilon of float64, 2.2e-16,
    so that a probability of exactly 0 has a finite logit, as
    :func:`polyroc.metrics.log_loss` clips), or the scores as given with
    ``from_logits=True``. They minimise the (weighted) mean log loss
    :math:`-\sum_i w_i \log q_{i, y_i} / \sum_i w_i` of the calibrated
    probabilities ``q``:

    - ``"temperature"``: ``q = softmax(z / T)``, the root in ``log T`` of the
      exact derivative of the loss, searched in ``[-10, 10]`` (at a bound,
      ``converged`` is False). On the same logits this is scikit-learn's
      temperature scaling (``CalibratedClassifierCV(method="temperature")``),
      which fits ``1 / T`` in the same bounds by a bounded scalar search of
      the same loss. scikit-learn takes the classifier's decision function
      when it has one (pass it here with ``from_logits=True``), else the
      log of ``predict_proba + 1e-12`` where this takes the log of ``p``
      clipped at 2.2e-16: the same logits up to ``1e-12 / p``. The
      temperature keeps each row's argmax.
    - ``"vector"``: ``q = softmax(a * z + b)``, per-class scales ``a`` and
      intercepts ``b`` (b is centred: adding a constant to every intercept
      does not change ``q``).
    - ``"matrix"``: ``q = softmax(z @ W.T + b)``, minimising the loss plus
      the ODIR penalty ``reg_lambda / (m (m - 1)) * sum_{j != k} W_jk**2 +
      reg_mu / m * sum_j b_j**2`` for m classes (Kull et al. 2019). As
      ``reg_lambda`` grows, W becomes diagonal and, with ``reg_mu=0``, the
      map becomes the vector map.
    - ``"isotonic"``: for each class j, the isotonic (non-decreasing)
      regression of the indicator ``y == j`` on column j of the scores
      (weighted, samples of weight 0 left out, equal scores pooled into
      their weighted mean; scikit-learn also pools scores less than 1e-15
      apart), linear
      between the distinct scores and constant beyond them; the rows are then
      divided by their sums (a row of zeros becomes uniform). This is
      scikit-learn's ``IsotonicRegression(out_of_bounds="clip", y_min=0,
      y_max=1)`` per class; it fits the column as given, probabilities or
      logits.

    Parameters
    ----------
    y_val : array-like of shape (n_samples,)
        True labels of the validation data.
    val_scores : array-like of shape (n_samples, n_classes)
        Validation scores, one column per class in the order of ``labels``
        (default: the sorted labels): probabilities (rows on the simplex), or
        logits with ``from_logits=True``.
    method : {"temperature", "vector", "matrix", "isotonic"}, default="temperature"
        The map.
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the score columns.
    from_logits : bool, default=False
        Whether ``val_scores`` (and the scores given to
        :meth:`Calibrator.transform`) are logits rather than probabilities.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the validation samples.
    reg_lambda : float, default=1e-3
        ODIR penalty on the off-diagonal weights of the matrix map (>= 0).
    reg_mu : float, default=1e-3
        ODIR penalty on the intercepts of the matrix map (>= 0).

    Returns
    -------
    Calibrator
        The fitted map; ``calibrator.transform(scores)`` calibrates new scores.

    Raises
    ------
    ValueError
        If ``method`` is not one of the four maps, ``reg_lambda`` or
        ``reg_mu`` is negative or not finite; if ``val_scores`` is not 2-D,
        holds NaN or infinity, or (unless ``from_logits=True``) has negative
        values or rows that do not sum to 1; if its column count differs from
        the number of classes; if ``y_val`` and ``val_scores`` differ in
        length, ``y_val`` has labels outside ``labels`` or fewer than 2
        classes; if ``sample_weight`` has another length, negative values or
        sums to 0.
    TypeError
        If ``method``, ``from_logits``, ``reg_lambda`` or ``reg_mu`` is of
        the wrong type, or ``val_scores`` or ``sample_weight`` is not numeric.

    See Also
    --------
    Calibrator.transform : Apply the fitted map.
    polyroc.metrics.log_loss : The loss the linear maps minimise.
    polyroc.probability.softmax : Logits to probabilities.

    References
    ----------
    .. [1] Guo, Pleiss, Sun & Weinberger (2017). On calibration of modern
       neural networks. ICML. arXiv:1706.04599.
    .. [2] Kull, Perello-Nieto, Kängsepp, Silva Filho, Song & Flach (2019).
       Beyond temperature scaling: obtaining well-calibrated multiclass
       probabilities with Dirichlet calibration. NeurIPS. arXiv:1910.12656.
    .. [3] Zadrozny & Elkan (2002). Transforming classifier scores into
       accurate multiclass probability estimates. KDD.

    Examples
    --------
    >>> import numpy as np
    >>> from polyroc.probability import softmax
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=(2000, 3)) * 2
    >>> y = np.array([rng.choice(3, p=p) for p in softmax(z, axis=1)])
    >>> calibrator = fit_calibrator(y, softmax(3 * z, axis=1))  # over-confident scores
    >>> round(calibrator.temperature, 1)
    3.0
    >>> calibrator.loss_after < calibrator.loss_before
    True
    """
    targets = check_scores(
        y_val,
        val_scores,
        labels=labels,
        sample_weight=sample_weight,
        name="val_scores",
        y_name="y_val",
        require_simplex=not from_logits,
        one_column_hint=False,
    )
    y, scores, classes, weights = targets.y_true, targets.y_score, targets.classes, targets.sample_weight
    w = np.ones(y.size) if weights is None else weights
    w = w / w.sum()
    logits = scores if from_logits else _log_probabilities(scores)
    matrix_options = {"reg_lambda": float(reg_lambda), "reg_mu": float(reg_mu)} if method == "matrix" else {}
    settings = {"method": method, "from_logits": from_logits, "reg_lambda": None, "reg_mu": None, **matrix_options}
    fields: dict[str, Any] = {"temperature": None, "coef": None, "intercept": None, "knots": None, "knot_values": None}
    if method == "isotonic":
        fields["knots"], fields["knot_values"] = _fit_isotonic(scores, y, w)
        converged = True
    elif method == "temperature":
        fields["temperature"], converged = _fit_temperature(logits, y, w)
        fields["coef"], fields["intercept"] = np.eye(classes.size) / fields["temperature"], np.zeros(classes.size)
    else:
        fields["coef"], fields["intercept"], converged = _fit_linear(
            logits, y, w, method, float(reg_lambda), float(reg_mu)
        )
    before = scores if not from_logits else softmax(scores, axis=1)
    calibrator = Calibrator(
        method=method,
        classes=classes,
        loss_before=_mean_log_loss(before, y, w),
        loss_after=float("nan"),
        converged=bool(converged),
        settings=settings,
        **fields,
    )
    after = calibrator._apply(scores, from_logits) if method == "isotonic" else calibrator._map_logits(logits)
    return replace(calibrator, loss_after=_mean_log_loss(after, y, w))


def _log_probabilities(probabilities: np.ndarray) -> np.ndarray:
    """``log p`` with each probability clipped below at float64's machine epsilon (log 0 is finite)."""
    return np.log(np.maximum(probabilities, _EPS))


def _mean_log_loss(probabilities: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Weighted mean of -log q(true class), ``w`` summing to 1, probabilities clipped as ``log_loss`` clips."""
    return float(np.dot(w, sample_log_losses(y, probabilities, _EPS)))


def _fit_temperature(logits: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, bool]:
    """T minimising the weighted log loss of ``softmax(logits / T)``, and whether it lies inside the bounds.

    The loss is convex in ``beta = 1 / T``, with derivative
    ``sum_i w_i (E_q[z_i] - z_{i, y_i})``; its sign changes once, so the root
    in ``log T`` is found by bracketing.
    """
    true_logits = logits[np.arange(y.size), y]
    row_max = logits.max(axis=1)  # the row maximum of beta * z is beta times this (beta > 0)
    blocks = list(_row_chunks(y.size, logits.shape[1], TEMPERATURE_BLOCK_CELLS))

    def slope(log_temperature: float) -> float:
        """Derivative of the loss in ``beta``; its sign is that of the derivative in ``-log T``."""
        beta = float(np.exp(-log_temperature))
        expected = np.empty(y.size)

        def fill(rows: slice) -> None:
            expected[rows] = _expected_logits(logits[rows], row_max[rows], beta)

        for _ in chunk_map(fill, blocks):
            pass
        return float(np.dot(w, expected - true_logits))

    low, high = LOG_TEMPERATURE_BOUNDS
    # the slope in beta is positive for small T (large beta), negative for large T
    if slope(low) <= 0:  # the loss still falls as T shrinks to its lower bound
        return float(np.exp(low)), False
    if slope(high) >= 0:  # the loss still falls as T grows to its upper bound
        return float(np.exp(high)), False
    root = brentq(slope, low, high, xtol=1e-14, rtol=4 * _EPS, maxiter=500)
    return float(np.exp(root)), True


def _softmax_rows(logits: np.ndarray) -> np.ndarray:
    """:func:`scipy.special.softmax` along the rows of a C-ordered float64 array, overwritten in place.

    The same arithmetic (maximum subtracted, exponentiated, divided by the
    row sum), in cache-sized row blocks on the worker threads.

    >>> from scipy.special import softmax
    >>> z = np.array([[1.0, 2.0, 0.5], [-3.0, 0.0, 40.0]])
    >>> bool(np.array_equal(_softmax_rows(z.copy()), softmax(z, axis=1)))
    True
    """

    def block_softmax(rows: slice) -> None:
        block = logits[rows]
        block -= block.max(axis=1, keepdims=True)
        np.exp(block, out=block)
        block /= block.sum(axis=1, keepdims=True)

    for _ in chunk_map(block_softmax, _row_chunks(logits.shape[0], logits.shape[1], TEMPERATURE_BLOCK_CELLS)):
        pass
    return logits


def _expected_logits(logits: np.ndarray, row_max: np.ndarray, beta: float) -> np.ndarray:
    """Per row, ``sum_j q_j z_j`` with ``q = softmax(beta * z)``; ``row_max`` the rows' maxima of ``z``, ``beta > 0``.

    The same arithmetic as :func:`scipy.special.softmax` (the rows' maxima of
    ``beta * z`` are ``beta * row_max``, rounding being monotone), in one
    buffer exponentiated in place.

    >>> from scipy.special import softmax
    >>> z = np.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]]))
    >>> expected = np.einsum("ij,ij->i", softmax(z * 0.8, axis=1), z)
    >>> bool(np.array_equal(_expected_logits(z, z.max(axis=1), 0.8), expected))
    True
    """
    scaled = logits * beta
    scaled -= (row_max * beta)[:, None]
    np.exp(scaled, out=scaled)
    scaled /= scaled.sum(axis=1, keepdims=True)
    return np.einsum("ij,ij->i", scaled, logits)


def _class_features(logits: np.ndarray, method: str) -> np.ndarray:
    """Per row and class, the features its calibrated logit is linear in: (n, m, d).

    Vector map: ``[z_ij, 1]`` (d = 2). Matrix map: ``[z_i, 1]`` for every class
    (d = m + 1, a broadcast view).
    """
    n, m = logits.shape
    if method == "vector":
        return np.stack([logits, np.ones_like(logits)], axis=2)
    row = np.hstack([logits, np.ones((n, 1))])
    return np.broadcast_to(row[:, None, :], (n, m, m + 1))


def _penalty_weights(m: int, method: str, reg_lambda: float, reg_mu: float) -> np.ndarray:
    """Per parameter (m, d), the coefficient c of its penalty ``c * theta**2`` (all 0 for the vector map)."""
    if method == "vector":
        return np.zeros((m, 2))
    weights = np.zeros((m, m + 1))
    if m > 1:
        weights[:, :m] = reg_lambda / (m * (m - 1))
        np.fill_diagonal(weights[:, :m], 0.0)
    weights[:, m] = reg_mu / m
    return weights


def _row_chunks(n: int, cells_per_row: int, cells: int = HESSIAN_CHUNK_CELLS) -> Iterator[slice]:
    """Consecutive row slices covering ``range(n)``, each of about ``cells`` cells.

    >>> [(rows.start, rows.stop) for rows in _row_chunks(5, 3, cells=6)]
    [(0, 2), (2, 4), (4, 5)]
    """
    step = max(1, cells // max(cells_per_row, 1))
    for start in range(0, n, step):
        yield slice(start, min(start + step, n))


def _linear_map_objective(
    theta: np.ndarray, features: np.ndarray, y: np.ndarray, w: np.ndarray, penalty: np.ndarray
) -> tuple[float, np.ndarray, np.ndarray]:
    """Penalised weighted log loss of the calibrated logits ``sum_a theta[j, a] * features[i, j, a]``.

    ``w`` sums to 1. Returns the objective, its gradient and its Hessian, in
    the flattened order of ``theta`` (m, d).
    """
    n, m, d = features.shape
    theta = theta.reshape(m, d)
    logits = np.einsum("ija,ja->ij", features, theta)
    log_q = logits - logsumexp(logits, axis=1, keepdims=True)
    q = np.exp(log_q)
    loss = -float(np.dot(w, log_q[np.arange(n), y])) + float(np.sum(penalty * theta**2))
    residual = q * w[:, None]
    residual[np.arange(n), y] -= w
    gradient = np.einsum("ij,ija->ja", residual, features) + 2 * penalty * theta
    hessian = np.zeros((m, d, m, d))
    diagonal = np.einsum("ij,ija,ijb->jab", q * w[:, None], features, features)
    for j in range(m):
        hessian[j, :, j, :] = diagonal[j]
    for rows in _row_chunks(n, m * d):
        spread = (np.sqrt(w[rows])[:, None, None] * q[rows][:, :, None] * features[rows]).reshape(-1, m * d)
        hessian -= (spread.T @ spread).reshape(m, d, m, d)
    flat = hessian.reshape(m * d, m * d)
    flat[np.diag_indices(m * d)] += 2 * penalty.ravel()
    return loss, gradient.ravel(), flat


def _fit_linear(
    logits: np.ndarray, y: np.ndarray, w: np.ndarray, method: str, reg_lambda: float, reg_mu: float
) -> tuple[np.ndarray, np.ndarray, bool]:
    """W and b of the vector or matrix map, from the identity, by trust-region Newton steps."""
    m = logits.shape[1]
    features = _class_features(logits, method)
    penalty = _penalty_weights(m, method, reg_lambda, reg_mu)
    d = features.shape[2]
    start = np.zeros((m, d))
    if method == "vector":
        start[:, 0] = 1.0
    else:
        start[:, :m] = np.eye(m)
    cache: dict[bytes, tuple[float, np.ndarray, np.ndarray]] = {}

    def evaluated(theta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        key = theta.tobytes()
        if key not in cache:
            cache.clear()
            cache[key] = _linear_map_objective(theta, features, y, w, penalty)
        return cache[key]

    def loss_and_gradient(theta: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        loss, gradient, _ = evaluated(theta)
        return loss, gradient

    def hessian(theta: NDArray[np.float64]) -> NDArray[np.float64]:
        return evaluated(theta)[2]

    solution = minimize(
        loss_and_gradient,
        start.ravel(),
        jac=True,
        hess=hessian,
        method="trust-exact",
        options={"gtol": GRADIENT_TOLERANCE, "maxiter": MAX_ITERATIONS},
    )
    theta = solution.x.reshape(m, d)
    converged = bool(np.max(np.abs(evaluated(solution.x)[1])) <= 10 * GRADIENT_TOLERANCE)
    if method == "vector":
        coef, intercept = np.diag(theta[:, 0]), theta[:, 1] - theta[:, 1].mean()
    else:
        coef, intercept = theta[:, :m].copy(), theta[:, m].copy()
    return coef, intercept, converged


def _fit_isotonic(
    scores: np.ndarray, y: np.ndarray, w: np.ndarray
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Per class, the distinct scores of its column (samples of positive weight) and their isotonic values."""
    kept = w > 0
    knots, values = [], []
    for j in range(scores.shape[1]):
        column, target, weights = scores[kept, j], (y[kept] == j).astype(np.float64), w[kept]
        distinct, where = np.unique(column, return_inverse=True)
        pooled_weights = np.bincount(where, weights=weights, minlength=distinct.size)
        pooled = np.bincount(where, weights=weights * target, minlength=distinct.size) / pooled_weights
        fitted = isotonic_regression(pooled, weights=pooled_weights, increasing=True).x
        knots.append(distinct)
        values.append(np.clip(fitted, 0.0, 1.0))
    return tuple(knots), tuple(values)


def _isotonic_probabilities(
    scores: np.ndarray, knots: tuple[np.ndarray, ...], values: tuple[np.ndarray, ...]
) -> np.ndarray:
    """Each column through its isotonic map, then rows divided by their sums (rows of zeros become uniform)."""
    mapped = np.column_stack([np.interp(scores[:, j], knots[j], values[j]) for j in range(scores.shape[1])])
    sums = mapped.sum(axis=1, keepdims=True)
    uniform = np.full_like(mapped, 1.0 / mapped.shape[1])
    return np.divide(mapped, sums, out=uniform, where=sums != 0)
