"""Weighted binomial rank-one factorization, fitted by alternating IRLS for a batch of problems.

The model for a matrix of rates M (R × K) with fit weights ω is
``M_ij ≈ expit(η_ij)``, ``η_ij = Λ0_i + Λ_i V_j``, fitted by minimising the
weighted binomial deviance. Every function works on a batch of B independent
problems at once (arrays with a leading axis of length B), so that a thousand
bootstrap refits are a few array operations per iteration.

Two parameterisations:

- ``"intercept"``: Λ0 is a free row intercept and V is centred with unit norm
  (each iteration: a closed-form 2 × 2 weighted least-squares step per row,
  then a weighted least-squares step per column, then an exact re-centring);
- ``"algorithm1"``: the paper's Algorithm 1, a rank-one fit ``η = Λ V`` without
  intercept (‖V‖ = 1), whose row intercept is afterwards the projection
  ``Λ0 = mean(V) Λ``.

The rates must lie strictly inside (0, 1) (``roc_dmf`` fits empirical-logit
rates, see :func:`polyroc.dmf._model.response_rates`): every cell then has a
finite logit and, since a binomial deviance term with 0 < M < 1 grows without
bound as |η| grows, the deviance has a finite minimiser. A single column
(K = 1, the binary case) is the saturated model and is solved in closed form,
``η = logit(M)``, for rates anywhere in [0, 1] (±∞ at 0 and 1).

Bootstrap replicates, warm-started from the point fit, switch after a few
alternating iterations to joint Newton steps (``newton=True``): the
alternating steps converge linearly, slowly where Λ and V are strongly
coupled, while Newton steps converge fast once close to the solution.

The weights are divided by their mean before fitting, so that multiplying
them by a constant changes neither the iterations nor the result (only the
reported deviance, which is on the original scale).

Numerical safeguards, none of which is active at a solution of ordinary data
(tightening any of them by a factor 10⁴ moves D by less than 1e-6 in the tests):
η is clamped to ±:data:`ETA_BOUND` when forming the means, each block step is
halved (at most :data:`MAX_HALVINGS` times) while it raises the deviance, the
IRLS weights are floored at :data:`VARIANCE_FLOOR`, a row whose 2 × 2 system is
singular to :data:`SINGULAR_RTOL` gets an intercept-only step, and denominators
are floored at :data:`DENOMINATOR_FLOOR`. A fit stops when the relative change
of deviance ``|Dev_old - Dev_new| / (|Dev_new| + 0.1)`` falls below ``tol``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import logit

METHODS = ("intercept", "algorithm1")
ETA_BOUND = 30.0
MAX_HALVINGS = 20
VARIANCE_FLOOR = 1e-12
DENOMINATOR_FLOOR = 1e-300
SINGULAR_RTOL = 1e-12
#: |η| below which μ (1 - μ) >= exp(-|η|) / 4 stays above VARIANCE_FLOOR (with a margin).
VARIANCE_BOUND = 26.0
#: At most this many rows for the deviance's product form (see _Solver).
PRODUCT_ROWS = 1000
#: Alternating iterations before the Newton steps of ``newton=True``.
NEWTON_AFTER = 3
#: Newton steps between refreshes of their Hessian.
NEWTON_REFRESH = 4


class Factorization(NamedTuple):
    """A batch of fits: ``η = intercept[:, :, None] + slope[:, :, None] * effect[:, None, :]``.

    ``effect`` is centred with unit norm and its first entry is >= 0 (for a
    single column, K = 1, it is 0: there is no pair effect).
    """

    intercept: np.ndarray  # (B, R)
    slope: np.ndarray  # (B, R)
    effect: np.ndarray  # (B, K)
    deviance: np.ndarray  # (B,)
    n_iter: np.ndarray  # (B,)
    converged: np.ndarray  # (B,)


def fit_factorization(rates, weights, *, method="intercept", start=None, tol=1e-8, max_iter=200, newton=False):
    """Fit the rank-one binomial factorization to a batch of rate matrices.

    Parameters
    ----------
    rates : ndarray of shape (B, R, K)
        Observed proportions, strictly inside (0, 1) when K >= 2; a single
        column (K = 1) may hold 0 and 1.
    weights : ndarray of shape (R, K)
        Positive fit weights ω, shared by the batch.
    method : {"intercept", "algorithm1"}
    start : Factorization, optional
        Starting values in the fitting parameterisation (see
        :func:`start_from_logits`), broadcast over the batch. Default: the
        rank-one SVD of the logits of the rates. Ignored when K = 1.
    tol : float
        Convergence tolerance on the relative change of deviance.
    max_iter : int
        Maximum number of iterations.
    newton : bool
        With the intercept model, after :data:`NEWTON_AFTER` alternating
        iterations, iterate joint Newton steps on (Λ0, Λ, V) whose Hessian is
        taken afresh every :data:`NEWTON_REFRESH` steps (a chord method, see
        :func:`_hessian`): fewer iterations, each with one evaluation of the
        deviance instead of two, from a start close to the solution such as a
        bootstrap replicate warm-started from the point fit. The minimum and
        the stopping rule are those of the alternating steps. Ignored by
        ``"algorithm1"``.

    Returns
    -------
    Factorization

    Raises
    ------
    ValueError
        If K >= 2 and a rate is not strictly inside (0, 1).

    Examples
    --------
    >>> rates = np.array([[[0.9, 0.6, 0.7], [0.4, 0.1, 0.2]]])
    >>> fit = fit_factorization(rates, np.ones((2, 3)))
    >>> bool(fit.converged[0]), np.round(np.abs(fit.effect[0]).sum(), 6) > 0
    (True, np.True_)
    >>> fit_factorization(np.array([[[1.0], [0.25]]]), np.ones((2, 1))).intercept.tolist()
    [[inf, -1.0986122886681098]]
    """
    rates = np.asarray(rates, dtype=np.float64)
    if rates.shape[2] == 1:
        return saturated_fit(rates)
    if not (rates.min() > 0 and rates.max() < 1):
        raise ValueError("rates must lie strictly inside (0, 1) to be factorized")
    intercept_model = method == "intercept"
    if start is None:
        start = start_from_logits(logit(rates), intercept=intercept_model)
    batch, n_rows, n_cols = rates.shape
    params = _Params(
        np.broadcast_to(start.intercept, (batch, n_rows)).copy(),
        np.broadcast_to(start.slope, (batch, n_rows)).copy(),
        np.broadcast_to(start.effect, (batch, n_cols)).copy(),
    )
    scale = weights.mean()
    solver = _Solver(rates, weights / scale, intercept_model, newton=newton and intercept_model)
    result = solver.run(params, tol, max_iter)
    result = result._replace(deviance=result.deviance * scale)
    return result if intercept_model else _project_on_ones(result)


def saturated_fit(rates):
    """The closed-form fit of one column (B, R, 1): η = logit(M), no pair effect, deviance 0.

    Both parameterisations coincide: with one pair the centred effect is 0
    (and Algorithm 1's projection of η = Λ V on V0 = 1 is η itself).
    """
    batch, n_rows, _ = rates.shape
    with np.errstate(divide="ignore"):
        intercept = logit(rates[:, :, 0])
    zeros = np.zeros(batch)
    return Factorization(
        intercept,
        np.zeros((batch, n_rows)),
        np.zeros((batch, 1)),
        zeros,
        np.zeros(batch, dtype=np.int64),
        np.ones(batch, dtype=bool),
    )


def start_from_logits(eta, *, intercept=True):
    """Starting values (B, ...) from the rank-one SVD of a batch of logit matrices (B, R, K).

    With ``intercept`` the logits are first centred on their row means, which
    become the intercept; otherwise the intercept is zero. For a matrix that is
    exactly of the model's form (a fitted predictor) this recovers its parameters.
    """
    row_mean = eta.mean(axis=2) if intercept else np.zeros(eta.shape[:2])
    u, s, vt = np.linalg.svd(eta - row_mean[:, :, None], full_matrices=False)
    slope = u[:, :, 0] * s[:, :1]
    effect = vt[:, 0, :]
    flat = s[:, 0] <= 1e-12 * max(1.0, float(np.abs(eta).max()))
    if np.any(flat):
        fallback = np.zeros(eta.shape[2])
        fallback[:2] = [1 / np.sqrt(2), -1 / np.sqrt(2)]
        effect[flat] = fallback
        slope[flat] = 0.0
    empty = np.zeros(eta.shape[0])
    return Factorization(row_mean, slope, effect, empty, empty.astype(np.int64), empty > 0)


def linear_predictor(fit):
    """The fitted logits η (B, R, K) of a batch of fits (not clamped)."""
    return fit.intercept[:, :, None] + fit.slope[:, :, None] * fit.effect[:, None, :]


class _Params(NamedTuple):
    """Parameters of a batch: η = intercept + slope × effect."""

    intercept: np.ndarray  # (b, R)
    slope: np.ndarray  # (b, R)
    effect: np.ndarray  # (b, K)

    def take(self, rows):
        return _Params(*(value[rows] for value in self))

    def put(self, rows, other):
        for value, new in zip(self, other):
            value[rows] = new

    def halfway(self, other):
        return _Params(*((a + b) / 2 for a, b in zip(self, other)))


class _Workspace(NamedTuple):
    """Arrays (b, R, K) at the current parameters, reused by every iteration."""

    eta: np.ndarray  # linear predictor
    residual: np.ndarray  # ω (M - μ)
    variance: np.ndarray  # ω max(μ (1 - μ), floor): the IRLS weights
    tail: np.ndarray  # scratch: exp(-|η|)
    scratch: np.ndarray
    positive: np.ndarray  # 1.0 where η >= 0, else 0.0

    @classmethod
    def allocate(cls, shape):
        return cls(*(np.empty(shape) for _ in range(6)))

    def first(self, n):
        return _Workspace(*(value[:n] for value in self))

    def keep(self, n, rows):
        """Move the arrays of ``rows`` (increasing) of the first ``n`` problems to the front."""
        for value in (self.eta, self.residual, self.variance):
            value[: rows.size] = value[:n][rows]


class _Solver:
    """Alternating IRLS for a batch of problems; problems leave the batch as they converge.

    The arithmetic writes into preallocated arrays: fresh (b, R, K) temporaries
    at every step would cost more than the arithmetic itself. The weighted
    least-squares steps are written as Newton steps, ``new = old + H⁻¹ g``,
    which is the same update as regressing the working response
    ``z = η + (M - μ) / (μ (1 - μ))`` (the normal equations of z differ from
    those of the step only by ``H old``), and needs only the residual
    ``ω (M - μ)`` and the weights ``ω μ (1 - μ)``: four matrix products per iteration.
    """

    def __init__(self, rates, weights, intercept_model, newton=False):
        self.rates = rates
        self.weights = weights
        self.unit_weights = bool(np.all(weights == 1.0))
        self.flat_weights = weights.ravel()
        # with weights constant down each column, Σ ω log(1 + e^-|η|) = -Σ_j ω_j log Π_i p_ij:
        # one product per column instead of a logarithm per cell (Π p >= 2^-R stays a normal number)
        uniform_rows = rates.shape[1] <= PRODUCT_ROWS and bool(np.all(weights == weights[:1]))
        self.column_weights = weights[0] if uniform_rows else None
        self.saturated = 2 * _negative_entropy(rates).reshape(rates.shape[0], -1) @ self.flat_weights
        self.intercept_model = intercept_model
        self.newton = newton
        self.hessian = None
        self.workspace = _Workspace.allocate(rates.shape)

    def run(self, params, tol, max_iter):
        """Iterate until every problem converges or ``max_iter``; return the Factorization."""
        batch = self.rates.shape[0]
        out = params.take(slice(None))
        deviance_out = np.zeros(batch)
        n_iter = np.zeros(batch, dtype=np.int64)
        converged = np.zeros(batch, dtype=bool)
        active = np.arange(batch)
        rates, saturated = self.rates, self.saturated
        deviance = self._evaluate(rates, saturated, params, self.workspace.first(batch))
        for iteration in range(1, max_iter + 1):
            workspace = self.workspace.first(active.size)
            previous = deviance
            if self.newton and iteration > NEWTON_AFTER:
                if (iteration - NEWTON_AFTER - 1) % NEWTON_REFRESH == 0:
                    self.hessian = _hessian(params, workspace)
                params, deviance = self._chord_step(rates, saturated, params, deviance, workspace)
            else:
                params, deviance = self._row_step(rates, saturated, params, deviance, workspace)
                params, deviance = self._column_step(rates, saturated, params, deviance, workspace)
            done = np.abs(previous - deviance) / (np.abs(deviance) + 0.1) < tol
            n_iter[active] = iteration
            converged[active[done]] = True
            if np.any(done) or iteration == max_iter:
                out.put(active, params)
                deviance_out[active] = deviance
                keep = np.flatnonzero(~done)
                if keep.size == 0:
                    break
                self.workspace.keep(active.size, keep)
                if self.hessian is not None:
                    self.hessian = self.hessian.take(keep)
                active, params, deviance = active[keep], params.take(keep), deviance[keep]
                rates, saturated = rates[keep], saturated[keep]
        intercept, slope, effect = _fix_sign(*out)
        return Factorization(intercept, slope, effect, deviance_out, n_iter, converged)

    def _evaluate(self, rates, saturated, params, ws):
        """Fill the workspace at ``params`` and return the deviance (b,).

        Only the means are computed from η clamped to ±ETA_BOUND; the residual
        and the deviance use η itself, so that a row whose cells saturate still
        has a consistent least-squares step. The clamp and the variance floor
        are skipped when the parameters bound |η| well inside them (they would
        change nothing).
        """
        eta, residual, variance, tail, p, positive = ws
        np.matmul(
            np.stack([params.intercept, params.slope], axis=2),
            np.stack([np.ones_like(params.effect), params.effect], axis=1),
            out=eta,
        )
        bound = np.max(np.abs(params.intercept) + np.abs(params.slope) * np.max(np.abs(params.effect)))
        np.greater_equal(eta, 0, out=positive)
        np.abs(eta, out=tail)
        if not bound < ETA_BOUND - 1:
            np.minimum(tail, ETA_BOUND, out=tail)
        np.negative(tail, out=tail)
        np.exp(tail, out=tail)  # exp(-|eta|), with eta clamped to ±ETA_BOUND
        np.add(tail, 1.0, out=p)
        np.divide(1.0, p, out=p)  # p = 1 / (1 + exp(-|eta|)) = max(mu, 1 - mu)
        np.multiply(tail, p, out=variance)  # exp(-|eta|) p = min(mu, 1 - mu), without cancellation
        variance *= p
        if not bound < VARIANCE_BOUND:
            np.maximum(variance, VARIANCE_FLOOR, out=variance)
        np.maximum(tail, positive, out=residual)
        residual *= p  # mu = p if eta >= 0 else exp(-|eta|) p
        np.subtract(rates, residual, out=residual)
        # deviance / 2 - saturated / 2 = Σ ω (softplus(η) - M η)
        #                              = Σ ω log1p(exp(-|η|)) + Σ ω η (1[η >= 0] - M), two sums of terms >= 0
        batch = eta.shape[0]
        if self.column_weights is None:
            np.log1p(tail, out=tail)
            log_term = tail.reshape(batch, -1) @ self.flat_weights
        else:
            log_term = -(np.log(np.multiply.reduce(p, axis=1)) @ self.column_weights)
        np.subtract(positive, rates, out=tail)
        if self.unit_weights:
            linear_term = (eta.reshape(batch, 1, -1) @ tail.reshape(batch, -1, 1))[:, 0, 0]
        else:
            tail *= eta
            linear_term = tail.reshape(batch, -1) @ self.flat_weights
            variance *= self.weights
            residual *= self.weights
        return 2 * (log_term + linear_term) + saturated

    def _row_step(self, rates, saturated, params, deviance, ws):
        """Weighted least squares of the working response on [1, V] (or on V) for every row."""
        v = params.effect[:, :, None]
        ones = np.ones_like(v)
        s, r = ws.variance, ws.residual  # matrix-vector products: faster than one product with [1, V, V²]
        s0, s1, s2 = (s @ ones)[..., 0], (s @ v)[..., 0], (s @ (v * v))[..., 0]
        g0, g1 = (r @ ones)[..., 0], (r @ v)[..., 0]
        a, lam = params.intercept, params.slope
        if self.intercept_model:
            det = s0 * s2 - s1 * s1
            singular = det <= SINGULAR_RTOL * s0 * s2
            det = np.where(singular, 1.0, det)
            intercept = np.where(singular, a + (g0 + lam * s1) / s0, a + (s2 * g0 - s1 * g1) / det)
            slope = np.where(singular, 0.0, lam + (s0 * g1 - s1 * g0) / det)
        else:
            intercept = a
            slope = lam + g1 / np.maximum(s2, DENOMINATOR_FLOOR)
        new = _Params(intercept, slope, params.effect)
        return self._halve_while_worse(rates, saturated, params, deviance, new, ws)

    def _column_step(self, rates, saturated, params, deviance, ws):
        """Weighted least squares of the working response minus Λ0 on Λ, for every column."""
        slope = params.slope[:, None, :]
        gradient = (slope @ ws.residual)[:, 0]
        denominator = ((slope * slope) @ ws.variance)[:, 0]
        informative = denominator > DENOMINATOR_FLOOR
        if np.all(informative):
            effect = params.effect + gradient / denominator
        else:  # Λ = 0: V is not identified, keep it
            effect = np.where(
                informative, params.effect + gradient / np.where(informative, denominator, 1.0), params.effect
            )
        new = params._replace(effect=effect)
        params, deviance = self._halve_while_worse(rates, saturated, params, deviance, new, ws)
        return self._normalise(params), deviance

    def _chord_step(self, rates, saturated, params, deviance, ws):
        """A Newton step with the stored Hessian (see :func:`_hessian`): H⁻¹ g through the Schur complement."""
        hessian = self.hessian
        r = ws.residual
        a, lam, v = params
        g0, g1 = r.sum(axis=2), (r @ v[:, :, None])[..., 0]
        gv = (lam[:, None, :] @ r)[:, 0]
        row_a = hessian.row_inverse[0] * g0 + hessian.row_inverse[1] * g1
        row_l = hessian.row_inverse[1] * g0 + hessian.row_inverse[2] * g1
        rhs = gv - (row_a[:, None, :] @ hessian.cross[0])[:, 0] - (row_l[:, None, :] @ hessian.cross[1])[:, 0]
        step_v = (hessian.schur_inverse @ rhs[:, :, None])[..., 0]
        step_a = row_a - (hessian.solved[0] @ step_v[:, :, None])[..., 0]
        step_l = row_l - (hessian.solved[1] @ step_v[:, :, None])[..., 0]
        new = _Params(a + step_a, lam + step_l, v + step_v)
        params, deviance = self._halve_while_worse(rates, saturated, params, deviance, new, ws)
        return self._normalise(params), deviance

    def _halve_while_worse(self, rates, saturated, old, old_deviance, new, ws):
        """Move to ``new``, halving the step where the deviance goes up; update the workspace."""
        deviance = self._evaluate(rates, saturated, new, ws)
        for _ in range(MAX_HALVINGS):
            worse = np.flatnonzero(deviance > old_deviance + 1e-12 * (np.abs(old_deviance) + 0.1))
            if worse.size == 0:
                break
            candidate = old.take(worse).halfway(new.take(worse))
            new.put(worse, candidate)
            retry = _Workspace.allocate((worse.size, *rates.shape[1:]))
            deviance[worse] = self._evaluate(rates[worse], saturated[worse], candidate, retry)
            for name in ("eta", "residual", "variance"):
                getattr(ws, name)[worse] = getattr(retry, name)
        return new, deviance

    def _normalise(self, params):
        """Exact reparameterisation: centre V (its mean moves into Λ0) and give it unit norm."""
        intercept, slope, effect = params
        if self.intercept_model:
            mean = effect.mean(axis=1, keepdims=True)
            intercept = intercept + mean * slope
            effect = effect - mean
        norm = np.linalg.norm(effect, axis=1, keepdims=True)
        usable = norm > DENOMINATOR_FLOOR
        effect = np.where(usable, effect / np.where(usable, norm, 1), effect)
        slope = np.where(usable, slope * norm, slope)
        return _Params(intercept, slope, effect)


class _Hessian(NamedTuple):
    """The Hessian of the half-deviance of a batch, ready to solve with (see :func:`_hessian`)."""

    row_inverse: np.ndarray  # (3, b, R): each row's inverse 2 × 2 block, entries (0, 0), (0, 1), (1, 1)
    cross: np.ndarray  # (2, b, R, K): the cross blocks B (Λ0 and Λ against V)
    solved: np.ndarray  # (2, b, R, K): A⁻¹ B
    schur_inverse: np.ndarray  # (b, K, K): the inverse of the Schur complement of the row blocks

    def take(self, rows):
        return _Hessian(self.row_inverse[:, rows], self.cross[:, rows], self.solved[:, rows], self.schur_inverse[rows])


def _hessian(params, ws):
    """The Hessian of the intercept model's half-deviance at ``params`` (the workspace is filled there).

    It has a 2 × 2 block per row (Λ0_i, Λ_i), those of :meth:`_Solver._row_step`,
    a diagonal block for V, that of :meth:`_Solver._column_step`, and the cross
    terms ``∂²/∂Λ0_i ∂V_j = W_ij Λ_i`` and ``∂²/∂Λ_i ∂V_j = W_ij Λ_i V_j - r_ij``
    (W the IRLS weights, r the residual). The rows are eliminated (Schur
    complement) and the two directions that only reparameterise η (V shifted
    along 1, or scaled along V, the rows compensating) are fixed by adding
    their projectors. Where a row block is singular or the Schur complement is
    not positive definite (away from a minimum), the cross terms are left out:
    the step is then the row and column steps from the same point, which
    always descends. Kept fixed, the Hessian is that of a chord method: each
    step needs the residual and a few matrix-vector products, and the steps
    converge fast from parameters already close to the solution.
    """
    s, r = ws.variance, ws.residual
    lam, v = params.slope, params.effect
    s0, s1, s2 = s.sum(axis=2), (s @ v[:, :, None])[..., 0], (s @ (v * v)[:, :, None])[..., 0]
    diagonal = ((lam * lam)[:, None, :] @ s)[:, 0]
    det = s0 * s2 - s1 * s1
    regular = np.all(det > SINGULAR_RTOL * s0 * s2, axis=1) & np.all(diagonal > DENOMINATOR_FLOOR, axis=1)
    det = np.where(det > SINGULAR_RTOL * s0 * s2, det, 1.0)
    row_inverse = np.stack([s2 / det, -s1 / det, s0 / det])
    cross = np.empty((2, *s.shape))
    np.multiply(s, lam[:, :, None], out=cross[0])
    np.multiply(cross[0], v[:, None, :], out=cross[1])
    cross[1] -= r
    solved = np.empty_like(cross)
    np.multiply(cross[0], row_inverse[0][:, :, None], out=solved[0])
    solved[0] += cross[1] * row_inverse[1][:, :, None]
    np.multiply(cross[0], row_inverse[1][:, :, None], out=solved[1])
    solved[1] += cross[1] * row_inverse[2][:, :, None]
    n_cols = v.shape[1]
    diagonal = np.maximum(diagonal, DENOMINATOR_FLOOR)
    block = np.zeros((s.shape[0], n_cols, n_cols))
    block[:, np.arange(n_cols), np.arange(n_cols)] = diagonal
    block += diagonal.mean(axis=1)[:, None, None] * (1.0 / n_cols + v[:, :, None] * v[:, None, :])
    schur = block - cross[0].transpose(0, 2, 1) @ solved[0] - cross[1].transpose(0, 2, 1) @ solved[1]
    schur = (schur + schur.transpose(0, 2, 1)) / 2
    definite = regular & _positive_definite(schur)
    if not np.all(definite):
        indefinite = ~definite
        cross[:, indefinite] = 0.0
        solved[:, indefinite] = 0.0
        schur[indefinite] = block[indefinite]
    return _Hessian(row_inverse, cross, solved, np.linalg.inv(schur))


def _positive_definite(matrices):
    """Whether each symmetric matrix of a batch (b, K, K) is positive definite (Cholesky succeeds)."""
    try:
        np.linalg.cholesky(matrices)
    except np.linalg.LinAlgError:
        return np.array([_positive_definite(m[None])[0] for m in matrices]) if len(matrices) > 1 else np.array([False])
    return np.ones(len(matrices), dtype=bool)


def _negative_entropy(rates):
    """``M log M + (1 - M) log(1 - M)`` for rates strictly inside (0, 1)."""
    complement = 1 - rates
    out = np.log(rates)
    out *= rates
    log_complement = np.log(complement)
    log_complement *= complement
    out += log_complement
    return out


def _project_on_ones(fit):
    """Algorithm 1's projection: Λ0 = mean(V) Λ, and the centred remainder as slope × effect."""
    mean = fit.effect.mean(axis=1, keepdims=True)
    centred = fit.effect - mean
    norm = np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), DENOMINATOR_FLOOR)
    intercept, slope, effect = _fix_sign(mean * fit.slope, fit.slope * norm, centred / norm)
    return fit._replace(intercept=intercept, slope=slope, effect=effect)


def _fix_sign(intercept, slope, effect):
    """Flip (Λ, V) so that V_1 >= 0; η is unchanged."""
    sign = np.where(effect[:, :1] < 0, -1.0, 1.0)
    return intercept, slope * sign, effect * sign
