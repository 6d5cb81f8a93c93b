"""Small real data sets bundled with polyroc for demos, examples and tests.

See ``data/README.md`` next to this file for sources and attribution. ``_demo``
splits the glass data and fits the models of ``polyroc demo`` on it.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources

import numpy as np

__all__ = ["Dataset", "load_glass"]


@dataclass(frozen=True)
class Dataset:
    """A bundled data set: features, labels and their names.

    Attributes
    ----------
    data : ndarray of shape (n_samples, n_features)
    target : ndarray of shape (n_samples,)
        String labels.
    feature_names : tuple of str
    name : str
    description : str
        Source and licence.

    See Also
    --------
    load_glass : Loads the bundled glass data set.
    polyroc.report.build_report : What ``polyroc demo`` builds from it.

    Examples
    --------
    >>> glass = load_glass()
    >>> glass.name, glass.feature_names[:3], glass.data.dtype
    ('glass', ('RI', 'Na', 'Mg'), dtype('float64'))
    """

    data: np.ndarray
    target: np.ndarray
    feature_names: tuple[str, ...]
    name: str
    description: str


def _read_csv(filename: str, label_column: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    text = resources.files(__package__).joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    rows = list(csv.reader(text.splitlines()))
    header, body = rows[0], rows[1:]
    label_index = header.index(label_column)
    feature_index = [i for i in range(len(header)) if i != label_index]
    data = np.array([[float(row[i]) for i in feature_index] for row in body])
    target = np.array([row[label_index] for row in body])
    return data, target, tuple(header[i] for i in feature_index)


def load_glass() -> Dataset:
    """Load the UCI Glass Identification data set (214 samples, 6 imbalanced classes).

    Labels are the strings ``"1"``, ``"2"``, ``"3"``, ``"5"``, ``"6"``, ``"7"`` (glass
    types; type 4 has no samples), with 70/76/17/13/9/29 samples. Source:
    German (1987), "Glass Identification", UCI Machine Learning Repository,
    doi:10.24432/C5WW2P (CC BY 4.0).

    Returns
    -------
    Dataset
        ``data`` (214, 9) float features, ``target`` (214,) string labels.

    Raises
    ------
    OSError
        If the bundled file cannot be read (a damaged installation).

    See Also
    --------
    Dataset : What it returns.
    polyroc.evaluate : Evaluate a model's scores on it.

    Examples
    --------
    >>> glass = load_glass()
    >>> glass.data.shape, sorted(set(glass.target.tolist()))
    ((214, 9), ['1', '2', '3', '5', '6', '7'])
    """
    data, target, names = _read_csv("glass.csv", "Type")
    return Dataset(
        data=data,
        target=target,
        feature_names=names,
        name="glass",
        description="UCI Glass Identification (Spiehler/German), CC BY 4.0, via mlbench",
    )
