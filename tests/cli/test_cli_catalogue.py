"""A catalogue of bad and edge inputs to the ``polyroc`` command, each tried as a user would.

Every case is one test id, prefixed with its expected outcome:

- ``error-``: exit code 2, exactly one line on standard error, ``polyroc CMD:
  error: ...``, naming the file (and line and column where one applies) or the
  option, no traceback, and not one file created, changed or removed;
- ``right-``: exit code 0 and the answer an independent route gives (the same
  data in a plain CSV file, the csv module, the files on disk);
- ``warning-``: exit code 0 and every warning on one line naming its category.
"""

import csv
import io
import json
import os
import socket
import stat
from dataclasses import dataclass, field

import numpy as np
import pytest

from polyroc.cli import main
from polyroc.io import MANIFEST_NAME, OutputDirectory, OutputFile
from polyroc.report._document import REPORT_PATHS

CLASSES = ("ant", "bee", "cow")


def _scores(n=30, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    y[:3] = [0, 1, 2]
    P = rng.dirichlet(np.ones(3), n) + np.eye(3)[y]
    return y, P / P.sum(axis=1, keepdims=True)


def _csv_text(n=30, seed=0, header=("ant", "bee", "cow", "label")):
    y, P = _scores(n, seed)
    rows = [",".join([*(repr(float(v)) for v in p), CLASSES[t]]) for p, t in zip(P, y)]
    return "\n".join([",".join(header), *rows]) + "\n"


GOOD = _csv_text()
LINES = GOOD.splitlines(keepends=True)


def _edit(line_number, text):
    """GOOD with its line ``line_number`` (1 = header) replaced by ``text``."""
    lines = list(LINES)
    lines[line_number - 1] = text + "\n"
    return "".join(lines)


def _npz(**arrays):
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _npy(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


TAU = '{"classes": ["ant", "bee", "cow"], "threshold": [0.3, 0.3, 0.4], "domain": "simplex"}'


def _polyroc_file(name, content):
    """A setup step: ``name`` written by polyroc (listed in the manifest)."""

    def write(root):
        with OutputFile(root / name) as out:
            out.write(content)

    return write


def _earlier_report(name="r", extra=None):
    """A setup step: a directory holding report files written by polyroc, plus ``extra`` user files."""

    def write(root):
        files = {"figures/m1-old-roc.png": b"old figure", "results.json": b"{}", "report.html": b"<html>old</html>"}
        with OutputDirectory(root / name, reserved=REPORT_PATHS) as out:
            out.write(files)
        for path, content in (extra or {}).items():
            (root / name / path).write_text(content)

    return write


def _hold_lock(path):
    def hold(root):
        (root / path).parent.mkdir(exist_ok=True)
        (root / path).write_text(f"{os.getpid()} {socket.gethostname()} 0123456789abcdef\n")

    return hold


@dataclass
class Case:
    """``files``: name -> str, bytes, None (a directory); ``setup``: steps run after them."""

    id: str
    argv: list
    files: dict = field(default_factory=dict)
    expect: tuple = ()
    setup: tuple = ()
    check: object = None


def error(name, argv, files, *expect, setup=()):
    return Case(f"error-{name}", argv, files, expect, setup)


def _ev(path="s.csv", *more):
    return ["evaluate", "--scores", path, *more]


def _tune(path="s.csv", *more, out="tau.json"):
    return ["tune", "--scores", path, "--resolution", "6", *more, "--out", out]


def _report(*more, scores=("s.csv",), out="r"):
    argv = ["report"]
    for path in scores:
        argv += ["--scores", path]
    return [*argv, "--n-boot", "5", "--no-progress", *more, "--out", out]


def _apply(tau="t.json", scores="s.csv", out="p.csv"):
    return ["apply", "--scores", scores, "--tau", tau, "--out", out]


S = {"s.csv": GOOD}
y_npz, P_npz = _scores()

ERRORS = [
    # reading score files
    error("empty-file", _ev(), {"s.csv": ""}, "s.csv: the file is empty"),
    error("header-only", _ev(), {"s.csv": LINES[0]}, "s.csv: a header row but no data rows"),
    error(
        "missing-label-column",
        _ev(),
        {"s.csv": _csv_text(header=("ant", "bee", "cow", "truth"))},
        "s.csv: no label column 'label'",
        "'truth'",
    ),
    error(
        "latin-1-file",
        _ev(),
        {"s.csv": GOOD.encode() + b"0.2,0.3,0.5,caf\xe9\n"},
        "s.csv: line 32 is not UTF-8 text (byte 0xe9)",
    ),
    error("binary-file-as-csv", _ev(), {"s.csv": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}, "s.csv: line 1 is not UTF-8"),
    error(
        "over-long-field",
        _ev(),
        {"s.csv": _edit(3, "0.2,0.3,0.5," + "x" * 200_000)},
        "s.csv: line 3: field larger than field limit",
    ),
    error(
        "duplicate-score-column",
        _ev(),
        {"s.csv": _csv_text(header=("ant", "bee", "ant", "label"))},
        "s.csv: column name 'ant' appears twice in the header (columns 1 and 3)",
    ),
    error(
        "duplicate-label-column",
        _ev(),
        {"s.csv": "ant,bee,label,label\n0.5,0.5,ant,bee\n"},
        "s.csv: column name 'label' appears twice",
    ),
    error(
        "non-numeric-cell",
        _ev(),
        {"s.csv": _edit(4, "0.2,x,0.5,ant")},
        "s.csv: non-numeric score 'x' in column 'bee', line 4",
    ),
    error("empty-cell", _ev(), {"s.csv": _edit(5, "0.2,,0.8,ant")}, "s.csv: an empty score in column 'bee', line 5"),
    error(
        "nan-cell",
        _ev(),
        {"s.csv": _edit(3, "nan,0.5,0.5,ant")},
        "s.csv: score nan in column 'ant', line 3 is not a finite number",
    ),
    error(
        "infinite-cell",
        _ev(),
        {"s.csv": _edit(6, "0.5,0.5,1e400,cow")},
        "s.csv: score inf in column 'cow', line 6 is not a finite number",
    ),
    error(
        "line-numbers-count-blank-lines",
        _ev(),
        {"s.csv": LINES[0] + "\n\n" + "0.1,oops,0.9,bee\n"},
        "non-numeric score 'oops' in column 'bee', line 4",
    ),
    error(
        "label-not-a-class",
        _ev(),
        {"s.csv": _edit(7, "0.2,0.3,0.5,owl")},
        "s.csv: labels ['owl'] in column 'label' are not class names",
        "(first at line 7)",
    ),
    error("ragged-row", _ev(), {"s.csv": _edit(3, "0.2,0.8")}, "s.csv: line 3 has 2 fields, the header has 4"),
    error(
        "semicolon-separated",
        _ev(),
        {"s.csv": GOOD.replace(",", ";")},
        "s.csv: no label column",
        "polyroc reads comma-separated files",
    ),
    error("unknown-suffix", _ev("s.xlsx"), {"s.xlsx": GOOD}, "s.xlsx: unknown file type '.xlsx'"),
    error("missing-file", _ev("absent.csv"), {}, "absent.csv: No such file or directory"),
    error("directory-as-score-file", _ev("folder.csv"), {"folder.csv": None}, "folder.csv: Is a directory"),
    error("unknown-id-column", _ev("s.csv", "--id-col", "id"), S, "s.csv: no id column 'id'"),
    error(
        "id-column-is-label-column",
        _ev("s.csv", "--id-col", "label"),
        S,
        "s.csv: the label column and the id column are both 'label'",
    ),
    error(
        "rows-not-summing-to-one",
        _ev(),
        {"s.csv": _edit(3, "0.5,0.7,0.5,ant")},
        "s.csv: rows of the scores must sum to 1 (line 3 sums to 1.7",
        "add --normalize",
    ),
    error("one-score-column", _ev(), {"s.csv": "ant,label\n1.0,ant\n"}, "s.csv: need at least 2 score columns"),
    error("corrupt-npz", _ev("s.npz"), {"s.npz": b"PK\x03\x04" + bytes(200)}, "s.npz: not a readable NPZ file"),
    error(
        "npz-without-labels",
        _ev("s.npz"),
        {"s.npz": _npz(scores=P_npz, classes=np.array(CLASSES))},
        "s.npz: NPZ file lacks arrays ['labels']",
    ),
    error(
        "npz-labels-of-other-length",
        _ev("s.npz"),
        {"s.npz": _npz(scores=P_npz, classes=np.array(CLASSES), labels=np.array(["ant"]))},
        "s.npz: array 'labels' must be (30,), got shape (1,)",
    ),
    error("npy-named-npz", _ev("s.npz"), {"s.npz": _npy(P_npz)}, "s.npz: holds a single .npy array"),
    # options
    error(
        "scores-given-twice",
        _tune("s.csv", "--scores", "t.csv"),
        {**S, "t.csv": GOOD},
        "argument --scores: given twice (the second time as 't.csv')",
    ),
    error("out-given-twice", [*_tune(), "--out", "other.json"], S, "argument --out: given twice"),
    error("unknown-metric-in-tune", _tune("s.csv", "--metric", "nope"), S, "argument --metric: unknown metric 'nope'"),
    error("unknown-metric-in-report", _report("--metric", "f1"), S, "argument --metric: unknown metric 'f1'"),
    error("n-boot-zero", _report("--n-boot", "0"), S, "argument --n-boot: expected an integer >= 1, got 0"),
    error("n-boot-negative", _report("--n-boot", "-5"), S, "argument --n-boot: expected an integer >= 1, got -5"),
    error(
        "n-boot-not-a-number", _report("--n-boot", "many"), S, "argument --n-boot: expected an integer >= 1, got 'many'"
    ),
    error("resolution-zero", _tune("s.csv", "--resolution", "0"), S, "argument --resolution: expected an integer >= 1"),
    error("n-samples-negative", _tune("s.csv", "--search", "random", "--n-samples", "-1"), S, "argument --n-samples"),
    error(
        "random-state-negative",
        _tune("s.csv", "--random-state", "-1"),
        S,
        "argument --random-state: expected a non-negative integer seed, got -1",
    ),
    error("unknown-search", _tune("s.csv", "--search", "grid"), S, "argument --search: invalid choice: 'grid'"),
    error("out-missing", ["tune", "--scores", "s.csv"], S, "the following arguments are required: --out"),
    error(
        "normalize-with-logits",
        _ev("s.csv", "--normalize", "--from-logits"),
        S,
        "argument --from-logits: not allowed with argument --normalize",
    ),
    error("unknown-command", ["evaluat"], S, "argument command: invalid choice: 'evaluat'"),
    error("empty-out-path", _tune(out=""), S, "argument --out: expected a path, got an empty string"),
    # where outputs go
    error(
        "tune-over-a-users-file",
        _tune(),
        {**S, "tau.json": "my notes"},
        "--out tau.json: tau.json exists and polyroc did not write it",
    ),
    error("tune-over-its-own-input", _tune(out="s.csv"), S, "--out s.csv: is also the --scores input"),
    error(
        "apply-over-its-tau-written-by-polyroc",
        _apply(out="t.json"),
        S,
        "--out t.json: is also the --tau input",
        setup=[_polyroc_file("t.json", TAU)],
    ),
    error(
        "apply-over-a-users-file",
        _apply(),
        {**S, "t.json": TAU, "p.csv": "keep me"},
        "--out p.csv: p.csv exists and polyroc did not write it",
    ),
    error(
        "tune-over-a-file-edited-since",
        _tune(),
        S,
        "--out tau.json: tau.json was changed after polyroc wrote it",
        setup=[_polyroc_file("tau.json", "{}"), lambda root: (root / "tau.json").write_text('{"edited": 1}')],
    ),
    error("tune-out-is-a-directory", _tune(out="outdir"), {**S, "outdir": None}, "--out outdir: is a directory"),
    error(
        "tune-out-in-a-missing-directory",
        _tune(out="nowhere/tau.json"),
        S,
        "--out nowhere/tau.json: the directory nowhere does not exist",
    ),
    error("tune-out-below-a-file", _tune(out="s.csv/tau.json"), S, "--out s.csv/tau.json: s.csv is not a directory"),
    error(
        "tune-while-another-writes",
        _tune(),
        S,
        f"--out tau.json: another polyroc process {os.getpid()}",
        setup=[_hold_lock(".tau.json.lock")],
    ),
    error(
        "report-into-a-users-directory",
        _report(out="busy"),
        {**S, "busy/thesis.tex": "mine"},
        "--out busy: the directory is not empty (thesis.tex) and is not an earlier polyroc output",
    ),
    error("report-into-the-current-directory", _report(out="."), S, "--out .: the directory is not empty"),
    error(
        "report-into-a-look-alike",
        _report(out="look"),
        {**S, "look/report.html": "x", "look/results.json": "{}", "look/figures/user.png": "mine"},
        "--out look: the directory is not empty",
        "is not an earlier polyroc output",
    ),
    error(
        "report-over-a-users-figure",
        _report(),
        S,
        "--out r: figures/mine.png exists and polyroc did not write it",
        setup=[_earlier_report(extra={"figures/mine.png": "the user's"})],
    ),
    error(
        "report-over-an-edited-report",
        _report(),
        S,
        "--out r: report.html was changed after polyroc wrote it",
        setup=[_earlier_report(extra={"report.html": "edited"})],
    ),
    error(
        "report-out-is-a-file", _report(out="r.txt"), {**S, "r.txt": "x"}, "--out r.txt: exists and is not a directory"
    ),
    error("report-out-in-a-missing-directory", _report(out="a/b"), S, "--out a/b: the directory a does not exist"),
    error(
        "report-over-a-damaged-manifest",
        _report(),
        S,
        f"--out r: r/{MANIFEST_NAME} is not a polyroc manifest",
        setup=[_earlier_report(), lambda root: (root / "r" / MANIFEST_NAME).write_text("{")],
    ),
    error(
        "report-while-another-writes",
        _report(),
        S,
        f"--out r: another polyroc process {os.getpid()}",
        setup=[_earlier_report(), _hold_lock("r/.polyroc.lock")],
    ),
    # thresholds files
    error("tau-not-json", _apply(), {**S, "t.json": "{oops"}, "t.json: not a thresholds JSON file"),
    error("tau-not-an-object", _apply(), {**S, "t.json": "[0.3, 0.3, 0.4]"}, "t.json: not a thresholds file"),
    error(
        "tau-unknown-domain",
        _apply(),
        {**S, "t.json": TAU.replace("simplex", "boxx")},
        "t.json: 'domain' must be 'simplex' or 'box'",
    ),
    error(
        "tau-non-numeric-threshold",
        _apply(),
        {**S, "t.json": TAU.replace("0.3, 0.3", '"0.3", 0.3')},
        "t.json: 'threshold' must be a list of finite numbers",
    ),
    error(
        "tau-off-the-simplex",
        _apply(),
        {**S, "t.json": TAU.replace("0.4]", "0.9]")},
        "t.json: thresholds must lie on the probability simplex",
    ),
    error(
        "tau-duplicate-classes",
        _apply(),
        {**S, "t.json": TAU.replace('"cow"', '"bee"')},
        "t.json: column name 'bee' appears twice",
    ),
    error(
        "tau-class-missing-from-scores",
        _apply(),
        {**S, "t.json": TAU.replace('"cow"', '"owl"')},
        "s.csv: score columns ['owl'] not found",
    ),
    error(
        "tau-latin-1", _apply(), {**S, "t.json": TAU.encode().replace(b"cow", b"c\xf6w")}, "t.json: line 1 is not UTF-8"
    ),
    error(
        "apply-scores-with-nan",
        _apply(),
        {"s.csv": _edit(3, "nan,0.5,0.5,ant"), "t.json": TAU},
        "s.csv: score nan in column 'ant', line 3",
    ),
    # report inputs
    error(
        "report-same-model-name-twice",
        _report(scores=("s.csv", "x/s.csv")),
        {**S, "x/s.csv": GOOD},
        "--scores: model name 's' given twice",
    ),
    error(
        "report-models-on-other-rows",
        _report("--id-col", "", scores=("a=s.csv", "b=t.csv")),
        {**S, "t.csv": _csv_text(seed=1)},
        "t.csv: its 'label' column differs from the first --scores file's",
        '--id-col "" paired the rows by position',
    ),
    error(
        "report-models-without-ids",
        _report(scores=("a=s.csv", "b=t.csv")),
        {**S, "t.csv": _csv_text(seed=1)},
        "--scores: the rows of 2 files cannot be matched: ['s.csv', 't.csv'] carry no id column",
        '--id-col NAME, or pass --id-col "" to pair the rows by position',
    ),
    error(
        "report-validation-of-other-classes",
        _report("--val", "v.csv"),
        {**S, "v.csv": GOOD.replace("cow", "owl")},
        "--val score columns",
    ),
]


def _stdout_body(out):
    """Standard output without its first line (which names the file)."""
    return out.split("\n", 1)[1]


def _same_as_plain(name, content):
    """A right answer: ``evaluate`` of ``content`` prints what ``evaluate`` of GOOD prints."""

    def check(root, run):
        (root / "plain.csv").write_text(GOOD)
        code, plain, _ = run(_ev("plain.csv"))
        assert code == 0
        code, out, err = run(_ev(name))
        assert code == 0 and err == ""
        assert _stdout_body(out) == _stdout_body(plain)

    return Case(f"right-{name}", [], {name: content}, check=check)


def _check_tune_replaces_its_own_output(root, run):
    assert run(_tune("s.csv", "--metric", "accuracy"))[0] == 0
    assert run(_tune("s.csv", "--metric", "f1_macro"))[0] == 0
    assert json.loads((root / "tau.json").read_text())["metric"] == "f1_macro"
    assert list(json.loads((root / MANIFEST_NAME).read_text())["files"]) == ["tau.json"]
    assert stat.S_IMODE((root / "tau.json").stat().st_mode) == 0o666 & ~_umask()


def _check_stale_lock_is_taken_over(root, run):
    (root / ".tau.json.lock").write_text(f"{2**22 + 1} {socket.gethostname()} 0123456789abcdef\n")  # no such process
    code, _, err = run(_tune())
    assert code == 0 and err == ""
    assert sorted(p.name for p in root.iterdir()) == [MANIFEST_NAME, "s.csv", "tau.json"]


def _umask():
    current = os.umask(0)
    os.umask(current)
    return current


def _check_apply_quotes_ids(root, run):
    ids = ["a,1", 'b "2"', "c"]
    lines = ["id,ant,bee,cow", '"a,1",0.5,0.3,0.2', '"b ""2""",0.2,0.5,0.3', "c,0.1,0.1,0.8"]
    (root / "s.csv").write_text("\n".join(lines) + "\n")
    (root / "t.json").write_text(TAU)
    assert run([*_apply(), "--id-col", "id"])[0] == 0
    rows = list(csv.reader((root / "p.csv").open(newline="")))
    assert rows == [["id", "prediction"], [ids[0], "ant"], [ids[1], "bee"], [ids[2], "cow"]]


def _check_report_in_empty_directory_with_equals_in_path(root, run):
    (root / "r").mkdir()
    (root / "lr=0.1.csv").write_text(GOOD)
    code, _, err = run(_report(scores=("lr=0.1.csv",)))
    assert code == 0, err
    results = json.loads((root / "r" / "results.json").read_text())
    assert list(results["models"]) == ["lr=0.1"]
    listed = json.loads((root / "r" / MANIFEST_NAME).read_text())["files"]
    on_disk = sorted(p.relative_to(root / "r").as_posix() for p in (root / "r").rglob("*") if p.is_file())
    assert on_disk == sorted([*listed, MANIFEST_NAME])


def _check_report_replaces_an_earlier_one_and_keeps_the_users_file(root, run):
    _earlier_report(extra={"notes.txt": "the user's"})(root)
    (root / "s.csv").write_text(GOOD)
    code, _, err = run(_report())
    assert code == 0, err
    assert (root / "r" / "notes.txt").read_text() == "the user's"
    assert not (root / "r" / "figures" / "m1-old-roc.png").exists()  # the earlier report's, unchanged: removed
    assert (root / "r" / "report.html").read_text().startswith("<!")


def _check_npz_reads_as_csv(root, run):
    np.savez(root / "s.npz", scores=P_npz, classes=np.array(CLASSES), labels=np.array(CLASSES)[y_npz])
    (root / "s.csv").write_text(GOOD)
    assert _stdout_body(run(_ev("s.npz"))[1]) == _stdout_body(run(_ev("s.csv"))[1])


def _check_normalize_rows_alias(root, run):
    y, P = _scores()
    scaled = (
        "\n".join([LINES[0].strip(), *(",".join([*(repr(float(3 * v)) for v in p), CLASSES[t]]) for p, t in zip(P, y))])
        + "\n"
    )
    (root / "scaled.csv").write_text(scaled)
    (root / "s.csv").write_text(GOOD)
    plain = _stdout_body(run(_ev("s.csv"))[1])
    assert _stdout_body(run(_ev("scaled.csv", "--normalize-rows"))[1]) == plain
    assert _stdout_body(run(_ev("scaled.csv", "--normalize"))[1]) == plain


RIGHT = [
    _same_as_plain("bom.csv", "\ufeff" + GOOD),
    _same_as_plain("crlf.csv", GOOD.replace("\n", "\r\n")),
    _same_as_plain("quoted.csv", "".join(f'"{line.strip()}"\n'.replace(",", '","') for line in LINES)),
    _same_as_plain("spaces-and-blank-lines.csv", GOOD.replace(",", " , ").replace("\n", "\n\n")),
    _same_as_plain("upper-case-suffix.CSV", GOOD),
    Case("right-npz-input", [], check=_check_npz_reads_as_csv),
    Case("right-normalize-rows", [], check=_check_normalize_rows_alias),
    Case("right-tune-replaces-its-own-output", [], S, check=_check_tune_replaces_its_own_output),
    Case("right-apply-quotes-ids", [], check=_check_apply_quotes_ids),
    Case("right-stale-lock-taken-over", [], S, check=_check_stale_lock_is_taken_over),
    Case(
        "right-report-into-empty-directory-path-with-equals",
        [],
        check=_check_report_in_empty_directory_with_equals_in_path,
    ),
    Case(
        "right-report-replaces-earlier-keeps-users-file",
        [],
        check=_check_report_replaces_an_earlier_one_and_keeps_the_users_file,
    ),
]


def _check_warning_for_a_class_without_samples(root, run):
    (root / "s.csv").write_text(
        "ant,bee,cow,label\n0.7,0.2,0.1,ant\n0.2,0.7,0.1,bee\n0.6,0.3,0.1,ant\n0.3,0.6,0.1,bee\n"
    )
    code, out, err = run(_ev())
    assert code == 0 and "Confusion matrix" in out
    lines = err.splitlines()
    assert lines and all(line.startswith("polyroc evaluate: warning: ") and "'cow'" in line for line in lines)
    assert lines[0].endswith("(UndefinedMetricWarning)")
    # the intervals of the class without rows have no spread to measure: named, not passed off as exact
    assert all(line.endswith(("(UndefinedMetricWarning)", "(IntervalWarning)")) for line in lines)


WARNINGS = [Case("warning-class-without-samples", [], check=_check_warning_for_a_class_without_samples)]


def _snapshot(root):
    """Every entry below ``root`` (hidden ones too): files with their bytes and modes, directories."""
    state = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        state[name] = (path.read_bytes(), stat.S_IMODE(path.stat().st_mode)) if path.is_file() else "dir"
    return state


def _prepare(root, case):
    for name, content in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    for step in case.setup:
        step(root)


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)

    def run_command(argv):
        code = main(argv)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run_command


@pytest.mark.parametrize("case", ERRORS, ids=[case.id for case in ERRORS])
def test_error(case, tmp_path, run):
    _prepare(tmp_path, case)
    before = _snapshot(tmp_path)
    code, _, err = run(case.argv)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    known = case.argv[0] in ("evaluate", "tune", "apply", "report", "demo")
    assert err.startswith(f"polyroc {case.argv[0]}: error: " if known else "polyroc: error: "), err
    for expected in case.expect:
        assert expected in err, err
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("case", RIGHT + WARNINGS, ids=[case.id for case in RIGHT + WARNINGS])
def test_right_answer_or_warning(case, tmp_path, run):
    _prepare(tmp_path, case)
    case.check(tmp_path, run)
    assert not [p.name for p in tmp_path.rglob("*") if p.name.endswith((".tmp", ".lock"))]
