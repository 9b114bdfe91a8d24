"""Fitted growth laws with their uncertainty: ``value ~ a * cells**k`` over the measured range.

A fit is made on the median value at each grid size (repetitions and boards of one size fold
into one point), by least squares in log-log space. It is reported with a 95% confidence
interval on ``k`` (Student's t with ``sizes - 2`` degrees of freedom) and the range of sizes it
covers, and it is withheld (``k`` is NaN, ``reason`` says why) when the range is too small to
speak of growth or the points too noisy to pin ``k`` down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: A fit needs this many distinct grid sizes ...
MIN_SIZES = 4
#: ... spanning at least this factor in cells ...
MIN_SPAN = 4.0
#: ... and a 95% interval on k no wider than this either side.
MAX_HALF_WIDTH = 0.5


@dataclass(frozen=True)
class PowerFit:
    """``value ~ a * cells**k``: the exponent with its 95% interval, over ``cells_min..cells_max``."""

    k: float
    a: float
    k_low: float
    k_high: float
    sizes: int
    cells_min: float
    cells_max: float
    reason: str = ""  # why there is no fit ('' when there is one)

    @property
    def fitted(self) -> bool:
        return not self.reason

    def text(self) -> str:
        """``k=1.05 [0.98, 1.12]``, or why there is no fit."""
        if not self.fitted:
            return f"no fit: {self.reason}"
        return f"k={self.k:.2f} [{self.k_low:.2f}, {self.k_high:.2f}]"


def fit_power_law(
    cells: np.ndarray,
    values: np.ndarray,
    min_sizes: int = MIN_SIZES,
    min_span: float = MIN_SPAN,
    max_half_width: float = MAX_HALF_WIDTH,
) -> PowerFit:
    """Fit ``value = a * cells**k`` to the per-size medians of positive values."""
    from scipy import stats

    cells, values = np.asarray(cells, float), np.asarray(values, float)
    ok = (cells > 0) & (values > 0) & np.isfinite(values)
    sizes = np.unique(cells[ok])
    medians = np.array([np.median(values[ok][cells[ok] == s]) for s in sizes])
    lo, hi = (float(sizes.min()), float(sizes.max())) if len(sizes) else (math.nan, math.nan)
    nan = math.nan

    def none(reason: str) -> PowerFit:
        return PowerFit(nan, nan, nan, nan, len(sizes), lo, hi, reason)

    if len(sizes) < min_sizes:
        return none(f"{len(sizes)} grid size(s), {min_sizes} needed")
    if hi / lo < min_span:
        return none(f"sizes span x{hi / lo:.1f} in cells, x{min_span:g} needed")
    fit = stats.linregress(np.log(sizes), np.log(medians))
    half = float(stats.t.ppf(0.975, len(sizes) - 2) * fit.stderr)
    if not math.isfinite(half) or half > max_half_width:
        return PowerFit(
            nan,
            nan,
            float(fit.slope - half),
            float(fit.slope + half),
            len(sizes),
            lo,
            hi,
            f"too noisy (k={fit.slope:.2f} +/- {half:.2f})",
        )
    return PowerFit(
        float(fit.slope),
        float(math.exp(fit.intercept)),
        float(fit.slope - half),
        float(fit.slope + half),
        len(sizes),
        lo,
        hi,
    )
