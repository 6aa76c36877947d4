"""The games' report words (`report_words.toml`, read by `kit.words`): each file loads, each of its
texts is used by its game's analysis (no dead prose), and the reader's rules hold."""

from __future__ import annotations

import importlib.resources
import re

import pytest

from simkit.games import alien_attack, eight_bit_invaders, oh_no_invasion, space_alert
from simkit.reporting import kit, seat_sections

GAME_PACKAGES = [m.__name__ for m in (alien_attack, eight_bit_invaders, oh_no_invasion, space_alert)]


def _with_words() -> list[str]:
    return [p for p in GAME_PACKAGES if (importlib.resources.files(p) / kit.WORDS_FILE).is_file()]


@pytest.mark.parametrize("package", _with_words())
def test_every_text_is_used_by_the_analysis(package: str) -> None:
    words = kit.words(package)
    analysis = (importlib.resources.files(package) / "analysis.py").read_text("utf-8")
    quoted = set(re.findall(r"""["']([a-z0-9_]+(?:\.[a-z0-9_]+)+)["']""", analysis))
    module = importlib.import_module(f"{package}.analysis")  # and the texts its kit sections read
    read = {
        k
        for c in vars(module).values()
        if isinstance(c, type)
        and issubclass(c, seat_sections.SeatSection)
        and hasattr(c, "WORDS")  # a game's
        for k in c.texts()
    }
    assert read <= set(words.texts), (
        f"{words.source}: texts its kit sections read, missing: {sorted(read - set(words.texts))}"
    )
    quoted |= read
    unused = sorted(set(words.texts) - quoted)
    assert words.texts and not unused, f"{words.source}: texts the analysis never names: {unused}"


def test_a_text_is_folded_filled_and_named_when_missing(tmp_path, monkeypatch) -> None:
    package = tmp_path / "wordy_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / kit.WORDS_FILE).write_text(
        'title = "Plain"\n[cards]\nhow = """Cards are\n   compared {n} times."""\n', encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    words = kit.words("wordy_game")
    assert words["title"] == "Plain"
    assert words["cards.how"] == "Cards are compared {n} times."
    assert words.fill("cards.how", n=3) == "Cards are compared 3 times."
    with pytest.raises(KeyError, match="wants a value for 'n'"):
        words.fill("cards.how")
    with pytest.raises(KeyError, match="has no text 'cards.why'"):
        words["cards.why"]


def test_a_text_that_is_not_text_is_refused(tmp_path, monkeypatch) -> None:
    package = tmp_path / "numbery_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / kit.WORDS_FILE).write_text("[cards]\nhow = 3\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match="cards.how must be text, not int"):
        kit.words("numbery_game")
