"""The report in a real browser: headless Chromium (Debian's `chromium`) opens index.html from disk.

A two-game report (8-Bit Invaders and Oh no... INVASION!!!, a few games per cell) is opened with
`--dump-dom` (the DOM after rendering, with a virtual time budget so nothing is still loading)
and with `--screenshot`. The checks: every section, sub-section, table and chart is in the
rendered DOM; every chart is an inline SVG that the browser parsed; every image embedded in an
SVG decodes; nothing in the page would load from the network; no console messages; and the
screenshot is a real PNG that is not blank. The screenshot is kept as a test artifact in
$SIMKIT_TEST_ARTIFACTS (default: reports/test-artifacts).

Skipped, with the reason, only when no chromium can be found (`.ci/run` installs it when missing).
"""

from __future__ import annotations

import base64
import io
import os
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.image as mpimg
import pytest

from simkit.core import dataset, runner, scenario
from simkit.reporting import write_report
from tests.cdp import chromium

ROOT = Path(__file__).resolve().parents[2]
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000", "--hide-scrollbars")
TIMEOUT = 300  # seconds before a hung browser fails the test (a shared, busy machine is slow)
GAMES = {
    "eight-bit": {
        "scenario": {"name": "browser 8-bit", "game": "eight-bit-invaders", "games": 20, "seed": 3},
        "grid": {"countdown": [7, 6], "strategy": ["greedy"]},
    },
    "oh-no": {
        "scenario": {"name": "browser oh no", "game": "oh-no-invasion", "games": 20, "seed": 4},
        "grid": {"level": [0, 3]},
        "fixed": {"players": 4, "strategy": "cautious"},
    },
}
GENERIC = (
    "findings",
    "summary",
    "win-rate",
    "convergence",
    "end-reasons",
    "length",
    "score",
    "data",
    "repro",
)
# attributes that make a browser fetch something
FETCHING = {"src", "href", "xlink:href", "srcset", "poster", "data", "action", "formaction", "background"}


def browse(page: Path, *args: str) -> subprocess.CompletedProcess:
    browser = chromium()
    assert browser
    return subprocess.run(
        [browser, *FLAGS, "--enable-logging=stderr", "--log-level=0", *args, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


class Elements(HTMLParser):
    """Every start tag of the rendered DOM: (tag, attributes)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    if chromium() is None:
        pytest.skip(
            "chromium not found on PATH (install it: apt-get install -y --no-install-recommends chromium)"
        )
    root = tmp_path_factory.mktemp("browser")
    paths = []
    for name, doc in GAMES.items():
        sc = scenario.parse(doc, "test")
        runner.run(sc, root / name, jobs=1, backend="sequential", progress=False)
        paths.append(root / name)
    index = write_report(paths, root / "report")
    dom = browse(index, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    parser = Elements()
    parser.feed(dom.stdout)
    artifacts = Path(os.environ.get("SIMKIT_TEST_ARTIFACTS", ROOT / "reports" / "test-artifacts"))
    artifacts.mkdir(parents=True, exist_ok=True)
    shot = artifacts / "report-screenshot.png"
    shot.unlink(missing_ok=True)
    snap = browse(index, f"--screenshot={shot}", "--window-size=1280,2400")
    return {
        "index": index,
        "paths": paths,
        "dom": dom.stdout,
        "stderr": dom.stderr,
        "elements": parser.found,
        "shot": shot,
        "snap": snap,
    }


def ids(r) -> set[str]:
    return {a["id"] for _, a in r["elements"] if "id" in a}


def test_every_dataset_section_and_subsection_renders(rendered):
    found = ids(rendered)
    sections = [
        a["id"] for t, a in rendered["elements"] if t == "section" and "dataset" in a.get("class", "")
    ]
    assert sections == [f"ds-{p.name}" for p in rendered["paths"]]
    for sid in sections:
        for part in GENERIC:
            assert f"{sid}-{part}" in found, f"{sid}-{part}"
    # the table of contents links every section and sub-section, and every link lands
    toc = rendered["dom"].split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
    targets = re.findall(r'href="#([^"]+)"', toc)
    assert set(sections) <= set(targets)
    assert all(t in found for t in targets)
    # the game's own sections (its analysis.py) are in the page and in the table of contents
    for tag, a in rendered["elements"]:
        if tag == "section" and "game-section" in a.get("class", ""):
            assert a["id"] in targets


def test_every_table_is_present_with_rows(rendered):
    dom = rendered["dom"]
    for p in rendered["paths"]:
        part = dom.split(f'id="ds-{p.name}"', 1)[1].split('<section class="dataset"', 1)[0]
        cells = dataset.load(p).manifest["cells"]
        for cls in ("summary", "end-reasons"):
            table = re.search(rf'<table class="{cls}">(.*?)</table>', part, re.S)
            assert table, (p.name, cls)
            rows = re.findall(r'<tr data-cell="(c\d+)">', table.group(1))
            assert rows == [c["cell"] for c in cells]
        assert re.search(r'<table class="paired">', part)
        assert re.search(r'<table class="provenance">', part)


def test_every_chart_is_an_inline_svg_with_alt_text(rendered):
    dom = rendered["dom"]
    figures = re.findall(r"<figure\b([^>]*)>(.*?)</figure>", dom, re.S)
    assert figures
    assert dom.count("<svg") == len(figures)
    for attrs, body in figures:
        alt = re.search(r'aria-label="([^"]+)"', attrs)
        assert alt and len(alt.group(1)) > 30
        assert 'role="img"' in attrs
        assert body.lstrip().startswith("<svg") and "</svg>" in body
        assert re.search(r"<figcaption>[^<]*\d[^<]*</figcaption>", body)  # states its game counts
    for p in rendered["paths"]:
        for kind in ("win-rate", "convergence", "end-reasons", "length", "score"):
            assert f'href="{p.name}-{kind}.svg"' in dom, (p.name, kind)
            assert (rendered["index"].parent / f"{p.name}-{kind}.png").stat().st_size > 0


def test_every_embedded_image_decodes(rendered):
    images = re.findall(r'<image\b[^>]*?(?:xlink:)?href="data:image/png;base64,([^"]+)"', rendered["dom"])
    for data in images:
        pixels = mpimg.imread(io.BytesIO(base64.b64decode(data)), format="png")
        assert pixels.size > 0


def test_nothing_loads_from_the_network(rendered):
    index = rendered["index"]
    for tag, attrs in rendered["elements"]:
        assert tag not in ("script", "link", "iframe", "object", "embed", "img", "video", "audio"), tag
        for key, value in attrs.items():
            if key not in FETCHING:
                continue
            v = value.strip()
            if v.startswith("#") or v.startswith("data:image/png;base64,"):
                continue
            assert not re.match(r"(https?:|//|ftp:|javascript:|data:)", v, re.I), (tag, key, v[:60])
            assert (index.parent / v).is_file(), f"{tag} {key}={v}: no such file beside index.html"
    assert not re.search(r"url\(\s*['\"]?\s*(https?:)?//", rendered["dom"], re.I)
    assert "@import" not in rendered["dom"]


def test_no_console_messages(rendered):
    console = [line for line in rendered["stderr"].splitlines() if ":CONSOLE" in line]
    assert console == []


def test_screenshot_is_kept_and_not_blank(rendered):
    snap, shot = rendered["snap"], rendered["shot"]
    assert snap.returncode == 0, snap.stderr[-2000:]
    assert shot.is_file() and shot.stat().st_size > 0
    pixels = mpimg.imread(shot)
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    assert pixels[..., :3].min() < 0.5  # some dark pixels: text was drawn, not a white page
