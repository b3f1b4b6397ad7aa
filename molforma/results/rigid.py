"""Best rigid fit of two small point sets in pure Python (no numpy import at start-up).

:func:`fit` returns the orthogonal 3×3 matrix ``r`` and the centroids with
``(mobile - cm) @ r + ct ≈ target`` (Kabsch: ``r = U Vᵀ`` from the SVD of the
covariance ``H``). The SVD comes from a Jacobi eigen-decomposition of ``HᵀH``; when
``H`` is rank-deficient (planar or linear molecules) the missing singular vectors are
completed by cross products, which gives a proper rotation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Matrix = list[list[float]]
_EPS = 1e-10


def _centroid(points: Sequence[Sequence[float]]) -> list[float]:
    n = len(points)
    return [sum(p[k] for p in points) / n for k in range(3)]


def _matmul(a: Matrix, b: Matrix) -> Matrix:
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def _transpose(a: Matrix) -> Matrix:
    return [[a[j][i] for j in range(3)] for i in range(3)]


def _jacobi(a: Matrix) -> tuple[list[float], Matrix]:
    """Eigenvalues and eigenvectors (columns) of a symmetric 3×3 matrix."""
    a = [row[:] for row in a]
    v = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    for _sweep in range(60):
        off = sum(a[i][j] ** 2 for i in range(3) for j in range(3) if i != j)
        if off < 1e-30 * max(1.0, sum(a[i][i] ** 2 for i in range(3))):
            break
        for p in range(2):
            for q in range(p + 1, 3):
                if abs(a[p][q]) < 1e-300:
                    continue
                theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q])
                t = math.copysign(1.0, theta) / (abs(theta) + math.sqrt(theta * theta + 1.0))
                c = 1.0 / math.sqrt(t * t + 1.0)
                s = t * c
                for k in range(3):
                    akp, akq = a[k][p], a[k][q]
                    a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
                for k in range(3):
                    apk, aqk = a[p][k], a[q][k]
                    a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
                for k in range(3):
                    vkp, vkq = v[k][p], v[k][q]
                    v[k][p], v[k][q] = c * vkp - s * vkq, s * vkp + c * vkq
    return [a[i][i] for i in range(3)], v


def _cross(a: Sequence[float], b: Sequence[float]) -> list[float]:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _unit(a: Sequence[float]) -> list[float] | None:
    n = math.sqrt(sum(x * x for x in a))
    return [x / n for x in a] if n > _EPS else None


def _perpendicular(a: Sequence[float]) -> list[float]:
    axis = min(range(3), key=lambda k: abs(a[k]))
    e = [1.0 if k == axis else 0.0 for k in range(3)]
    u = _unit(_cross(a, e))
    assert u is not None
    return u


def fit(
    mobile: Sequence[Sequence[float]], target: Sequence[Sequence[float]]
) -> tuple[Matrix, list[float], list[float]]:
    """(r, cm, ct) with ``(mobile - cm) @ r + ct ≈ target`` in the least-squares sense."""
    cm, ct = _centroid(mobile), _centroid(target)
    h = [
        [
            sum((p[i] - cm[i]) * (q[j] - ct[j]) for p, q in zip(mobile, target, strict=True))
            for j in range(3)
        ]
        for i in range(3)
    ]
    values, vecs = _jacobi(_matmul(_transpose(h), h))
    order = sorted(range(3), key=lambda k: -values[k])
    scale = max(values[order[0]], 0.0)
    v_cols = [[vecs[i][k] for i in range(3)] for k in order]
    u_cols: list[list[float]] = []
    for k, col in zip(order, v_cols, strict=True):
        sigma = math.sqrt(max(values[k], 0.0))
        u = _unit([sum(h[i][j] * col[j] for j in range(3)) for i in range(3)])
        if u is None or sigma <= 1e-8 * max(math.sqrt(scale), 1.0):
            break
        u_cols.append(u)
    if len(u_cols) == 0:
        return [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)], cm, ct
    if len(u_cols) == 1:  # linear: any rotation about the axis fits as well
        v_cols[1] = _perpendicular(v_cols[0])
        u_cols.append(_perpendicular(u_cols[0]))
    if len(u_cols) == 2:  # planar: complete both bases the same (proper) way
        v_cols[2] = _cross(v_cols[0], v_cols[1])
        u_cols.append(_cross(u_cols[0], u_cols[1]))
    # r = U Vᵀ = Σ u_k v_kᵀ, so that row vectors map as (x - cm) @ r + ct.
    r = [[sum(u_cols[k][i] * v_cols[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return r, cm, ct


def apply(
    points: Sequence[Sequence[float]],
    r: Matrix,
    cm: Sequence[float] | None = None,
    ct: Sequence[float] | None = None,
) -> list[list[float]]:
    """``(points - cm) @ r + ct`` rounded to 10 decimals (no -0.0)."""
    cm = cm or (0.0, 0.0, 0.0)
    ct = ct or (0.0, 0.0, 0.0)
    out: list[list[float]] = []
    for p in points:
        d = (p[0] - cm[0], p[1] - cm[1], p[2] - cm[2])
        out.append(
            [
                round(d[0] * r[0][j] + d[1] * r[1][j] + d[2] * r[2][j] + ct[j], 10) + 0.0
                for j in range(3)
            ]
        )
    return out
