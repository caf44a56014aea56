"""bench/report.py: a benchmark rewrites its own section of RESULTS.md and keeps the others."""

from __future__ import annotations

from bench.report import machine, write_section

BEFORE = "# Benchmark results\n\n## Seating\nold seating\n\n## API\napi figures\n"


def test_a_section_is_replaced_in_place_and_the_others_kept(tmp_path):
    results = tmp_path / "RESULTS.md"
    results.write_text(BEFORE)
    write_section("## Seating", "## Seating\nnew seating\nsecond line\n", results)
    assert results.read_text() == (
        "# Benchmark results\n\n## Seating\nnew seating\nsecond line\n\n## API\napi figures\n"
    )


def test_the_last_section_and_a_new_one(tmp_path):
    results = tmp_path / "RESULTS.md"
    results.write_text(BEFORE)
    write_section("## API", "## API\nnew api\n", results)
    write_section("## Movements", "## Movements\nfirst run\n", results)
    assert results.read_text().endswith("## API\nnew api\n\n## Movements\nfirst run\n")
    assert "old seating" in results.read_text()


def test_a_missing_file_is_started(tmp_path):
    results = tmp_path / "RESULTS.md"
    write_section("## API", "## API\nfigures\n", results)
    assert results.read_text() == "# Benchmark results\n\n## API\nfigures\n"


def test_the_machine_line_names_cores_and_python():
    line = machine()
    assert "nproc" in line and "Python 3." in line
