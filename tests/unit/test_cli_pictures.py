"""``python3 -m tessera pictures PAGE``: any page's boards get the build's pictures."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tessera import cli_pictures
from tessera.cli import main
from tessera.ui.embed.pictures import PICTURE_MARK

REPO = Path(__file__).resolve().parents[2]
PAGE = """<!doctype html><html lang="ru"><head><script type="module" src="https://HOST/embed.js"></script></head>
<body>
<tessera-board game="dots" mode="step" src="game.sgf"></tessera-board>
<tessera-board game="quadrature" example="chain_reaction" theme="dark"></tessera-board>
<tessera-board game="dots" src="missing.sgf"></tessera-board>
<tessera-board game="dots" src="https://elsewhere/game.sgf"></tessera-board>
</body></html>
"""


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["pictures", *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def page(tmp_path: Path) -> Path:
    (tmp_path / "game.sgf").write_text((REPO / "examples" / "game.sgf").read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "page.html"
    path.write_text(PAGE, encoding="utf-8")
    return path


def test_boards_get_a_picture_per_theme_and_the_rest_a_warning(page: Path) -> None:
    code, out, err = run(str(page))
    assert code == 0 and out == ""
    drawn = page.read_text(encoding="utf-8")
    assert drawn.count(f'{PICTURE_MARK}="light"') == 1 and drawn.count(f'{PICTURE_MARK}="dark"') == 2
    assert "4 board(s), 2 without a picture" in err
    assert "missing.sgf" in err and "https://elsewhere/game.sgf" in err
    assert "Диаграмма" in drawn          # the example's picture is named in the page's language


def test_a_second_run_changes_nothing_and_stdout_works(page: Path) -> None:
    run(str(page))
    once = page.read_text(encoding="utf-8")
    code, out, _ = run(str(page), "-o", "-")
    assert code == 0 and out == once


@pytest.mark.parametrize("content, key", [(b"\xff\xfe<html>", "not UTF-8"), (None, "cannot read")])
def test_unreadable_pages_are_one_line_errors(tmp_path: Path, content: bytes | None, key: str) -> None:
    path = tmp_path / "page.html"
    if content is not None:
        path.write_bytes(content)
    code, _, err = run(str(path))
    assert code == 2 and key in err and err.count("\n") == 1


def test_a_huge_page_is_refused(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_pictures, "MAX_PAGE_BYTES", 100)
    code, _, err = run(str(page))
    assert code == 2 and "too large" in err
    assert page.read_text(encoding="utf-8") == PAGE      # nothing written


TAGS = st.sampled_from(['<tessera-board game="dots">', "<tessera-board>", '<tessera-board example="x" game="dots">',
                        '<tessera-board src="../../etc/passwd">', '<tessera-board mode="puzzle" ply="9">',
                        "</tessera-board>", "<script>", "</script>", '{"format": "tessera/1"', "(;GM[40]SZ[5];B[aa])",
                        '<svg data-tessera-picture="light">', "<", ">", '"', "&lt;"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(TAGS, st.text(max_size=8)), max_size=14))
def test_any_page_is_written_or_refused_in_one_line(tmp_path: Path, parts: list[str]) -> None:
    path = tmp_path / "fuzz.html"
    path.write_text("".join(parts), encoding="utf-8", errors="surrogatepass")
    code, out, err = run(str(path), "-o", "-")
    assert code in (0, 2), err
    assert "Traceback" not in err and "went wrong" not in err   # no Python error shown as one (error.unexpected)
