"""A cell named by its settings (`text.settings_text`)."""

from simkit.reporting.text import settings_text


def test_settings_read_as_key_equals_value_in_the_order_asked() -> None:
    settings = {"mission": "real", "players": "4", "strategy": "greedy"}
    assert settings_text(settings, ["players", "mission"]) == "players=4 mission=real"
    # a key the settings lack is left out; none held reads ""
    assert settings_text(settings, ["figures", "players"]) == "players=4"
    assert settings_text(settings, ["figures"]) == ""
    assert settings_text(settings, sep=", ") == "mission=real, players=4, strategy=greedy"
