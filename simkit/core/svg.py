"""Small pieces for drawing a game's table as SVG text (each game's `draw.py`).

Plain strings, no drawing library: a replay page holds one drawing per step, and a worker never
imports plotting. Every text a drawing shows goes through `escape`.
"""

from __future__ import annotations

from html import escape as _escape

# One palette for every game's table, so the pages look alike
INK = "#222"
MUTED = "#888"
PAPER = "#fdfdf8"
LINE = "#bbb"
SEAT_COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#8d96a3", "#2e4057")
GOOD = "#2a9d8f"
BAD = "#c0392b"
WARN = "#e9a23b"


def escape(text: object) -> str:
    return _escape(str(text), quote=True)


def _attrs(attrs: dict[str, object]) -> str:
    """`fill_opacity=0.5` -> ` fill-opacity="0.5"`; None values are left out."""
    return "".join(
        f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items() if v is not None
    )


def svg(width: float, height: float, body: list[str] | str, label: str = "") -> str:
    """A whole drawing, scaled to its container's width; `label` is its accessible name."""
    inner = "".join(body) if isinstance(body, list) else body
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" role="img"'
        f' aria-label="{escape(label)}" font-family="sans-serif" font-size="12">'
        f'<rect width="{width:g}" height="{height:g}" fill="{PAPER}"/>{inner}</svg>'
    )


def rect(x: float, y: float, w: float, h: float, **attrs: object) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{_attrs(attrs)}/>'


def circle(cx: float, cy: float, r: float, **attrs: object) -> str:
    return f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}"{_attrs(attrs)}/>'


def line(x1: float, y1: float, x2: float, y2: float, **attrs: object) -> str:
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"{_attrs(attrs)}/>'


def polygon(points: list[tuple[float, float]], **attrs: object) -> str:
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return f'<polygon points="{pts}"{_attrs(attrs)}/>'


def text(x: float, y: float, content: object, **attrs: object) -> str:
    """Text anchored at (x, y); `anchor="middle"` centres it."""
    anchor = attrs.pop("anchor", None)
    return f'<text x="{x:g}" y="{y:g}"{_attrs({"text_anchor": anchor, **attrs})}>{escape(content)}</text>'


def group(body: list[str], **attrs: object) -> str:
    return f"<g{_attrs(attrs)}>{''.join(body)}</g>"


def title(content: object) -> str:
    """A tooltip for the element it is placed in."""
    return f"<title>{escape(content)}</title>"
