"""The refusal of a directory that is no earlier polyroc output explains itself without contradiction."""

from __future__ import annotations

import json

from polyroc.io import MANIFEST_NAME, OutputFile, directory_refusal


def test_a_directory_holding_a_file_output_names_the_manifest_and_what_it_lists(tmp_path):
    with OutputFile(tmp_path / "predictions.csv") as out:
        out.write("id,prediction\n")
    listed = json.loads((tmp_path / MANIFEST_NAME).read_text())  # the manifest polyroc wrote
    assert "predictions.csv" in json.dumps(listed)
    refusal = directory_refusal(tmp_path)
    assert refusal.startswith(f"the directory is not empty ({MANIFEST_NAME}, predictions.csv)")
    assert f"no {MANIFEST_NAME} lists" not in refusal  # the manifest is there: it lists a file, not a directory output
    assert f"its {MANIFEST_NAME} lists only the single files polyroc wrote there (predictions.csv)" in refusal


def test_a_foreign_directory_has_no_manifest(tmp_path):
    (tmp_path / "thesis.tex").write_text("mine")
    assert directory_refusal(tmp_path) == (
        f"the directory is not empty (thesis.tex) and is not an earlier polyroc output (it has no {MANIFEST_NAME}); "
        "choose a new or empty directory"
    )
