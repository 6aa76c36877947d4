"""A cell named by its settings (`text.settings_text`), and a crew by its strategy
(`text.the_crew`)."""

from simkit.reporting.text import settings_text, the_crew


def test_settings_read_as_key_equals_value_in_the_order_asked() -> None:
    settings = {"mission": "real", "players": "4", "strategy": "greedy"}
    assert settings_text(settings, ["players", "mission"]) == "players=4 mission=real"
    # a key the settings lack is left out; none held reads ""
    assert settings_text(settings, ["figures", "players"]) == "players=4"
    assert settings_text(settings, ["figures"]) == ""
    assert settings_text(settings, sep=", ") == "mission=real, players=4, strategy=greedy"


def test_a_crew_is_named_by_its_strategy_where_it_has_one() -> None:
    assert the_crew("greedy") == "the greedy crew"
    assert the_crew("") == "the crew"
