"""The fuzzer of bench/fuzz.py at a small size, on every change (issue 15): mutated logs, positions,
grids and queries must give reports or KbgErrors, with every diagnostic inside the input."""

from __future__ import annotations

import pytest

from .conftest import ROOT
from .conftest import fuzz_module as _fuzz


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mutated_inputs_give_reports_not_crashes(seed: int) -> None:
    findings = _fuzz().fuzz(150, seed)  # type: ignore[attr-defined]
    assert not findings, "\n".join(findings)


@pytest.mark.parametrize("seed", [1, 2])
def test_kbg_argument_lists_end_cleanly(seed: int) -> None:
    findings = _fuzz().fuzz(60, seed, cli_share=1.0)  # type: ignore[attr-defined]
    assert not findings, "\n".join(findings)


def test_a_path_with_a_nul_is_an_error_not_a_crash() -> None:
    """bench/fuzz.py --cli-only seed 1: `kbg --rules $'\\0' ...` and `check_file("a\\0b")` raised
    Python's ValueError (embedded null byte) from the file system."""
    import kbgrules
    from kbgrules.errors import DataError

    with pytest.raises(DataError) as info:
        kbgrules.load("kingdomino", rules_dirs="a\x00b")
    assert info.value.diagnostics[0].code == "no-such-directory"
    (d,) = kbgrules.check_file("a\x00b.log").input_errors
    assert d.code == "unreadable" and "NUL" in d.message
    from kbgrules.explain import search  # bench/fuzz.py --cli-only seed 2: `kbg --rules $'\0' site DIR`

    with pytest.raises(DataError):
        search("yield", rules_dirs=["a\x00b"])


def test_a_huge_jobs_count_starts_no_more_workers_than_files() -> None:
    """bench/fuzz.py --cli-only seed 1: `kbg check --jobs 10**30 A B` raised OverflowError from the
    process pool; workers are now at most the files to give them."""
    from kbgrules.core.check import check_files

    logs = [str(ROOT / "examples" / "kingdomino" / n) for n in ("two-players.log", "mighty-duel.log")]
    assert [r.exit_code for r in check_files(logs, jobs=10 ** 30)] == [0, 0]


def test_a_grid_cell_error_in_a_log_points_at_the_cell() -> None:
    """bench/fuzz.py seed 1: a bad cell was placed at the kingdom line with the cell's column, past its end."""
    from kbgrules.core.check import check_text

    text = "@game kingdomino\n@start position\n@players Ann Bob\nAnn kingdom\n    C W\n    LC  .\n"
    (g,) = check_text("g.log", text).games
    assert [(e.line, e.col, e.code) for e in g.errors] == [(6, 5, "grid-cell")]


@pytest.mark.parametrize("brk", ["\x85", "\u2028", "\u2029"])
def test_a_yaml_line_break_in_rule_data_is_refused_where_it_stands(brk: str) -> None:
    """bench/fuzz.py seed 12: PyYAML ends a line at U+0085, U+2028 and U+2029, so its positions (line 8,
    column 5007) fell outside the file's own lines."""
    from kbgrules.core.yamlsafe import parse_bytes
    from kbgrules.errors import UnsafeYamlError

    with pytest.raises(UnsafeYamlError) as info:
        parse_bytes("h.yaml", f"kind: variant\ngame: kingdomino\ntitle: Big {brk} kingdom\n".encode())
    (d,) = info.value.diagnostics
    assert (d.line, d.col, d.code) == (3, 12, "line-break")


def test_a_huge_number_in_rule_data_is_refused_by_the_schema(tmp_path: object) -> None:
    """bench/fuzz.py seed 21: a 5,000-digit integer raised Python's ValueError while the YAML was read."""
    from pathlib import Path

    import kbgrules
    from kbgrules.errors import KbgError

    d = Path(str(tmp_path))
    huge = "9" * 5000
    (d / "v.yaml").write_text("kind: variant\ngame: kingdomino\nid: big\ntitle: Big\nsummary: x\n"
                              "sources: [{doc: R1, section: x}]\npatch:\n  placement:\n"
                              f"    kingdom_size: {huge}\n", encoding="utf-8")
    with pytest.raises(KbgError) as info:
        kbgrules.load("kd", variants=["big"], rules_dirs=[d])
    assert "schema" in "\n".join(info.value.lines())


def test_a_rules_folder_without_yaml_files_keeps_the_shipped_explain_index(tmp_path: object) -> None:
    """bench/fuzz.py seed 1 case 2390: `kbg explain --rules .` in a folder of logs took 6.5 s to
    rebuild an index its files could not change; now it is the shipped index."""
    from kbgrules.explain.store import load_index

    assert load_index([str(tmp_path)]) is load_index()


def test_an_html_report_next_to_an_input_named_with_a_nul_is_an_input_error(tmp_path: object) -> None:
    """bench/fuzz.py --cli-only seed 3 case 151: `kbg check --html out $'\\0' ...` compared the page's path
    with each input's real path, and a NUL in one raised Python's ValueError (error internal)."""
    from pathlib import Path

    argv = ["check", "--json", "--quiet", "--turns", "\x00", "--html", "kingdomino", "xx", "/dev/full"]
    assert _fuzz().run_cli(argv, str(tmp_path)) is None  # type: ignore[attr-defined]
    assert (Path(str(tmp_path)) / "kingdomino").is_file()
