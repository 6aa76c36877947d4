"""Resolutions checked against the community's C# resolver (issue 17 point 4): the issue's own
reproductions as plan files, with the outcome the card text gives, and the points where simkit
keeps its reading against that resolver (RULES.md, "Readings where sources disagree")."""

from __future__ import annotations

from simkit.games.space_alert import plan_file
from simkit.games.space_alert.state import DESTROYED, SPACE, SURVIVED, card_code
from tests.games.space_alert.helpers import events, find, make, plan, put

UR, UW, UB, LR, LW, LB = range(6)
IDLE = ["-"] * 12
TILES = '["structural", "gravolift", "reactor", "shield", "heavy_laser", "lower_cannon"]'


def resolve(tmp_path, threats: list[str], figures: list[list[str]]) -> tuple[list[dict], dict]:
    """Resolve a plan: `threats` as TOML inline tables, four figures' 12 cards, fixed tiles."""
    rows = ",\n".join("  [" + ", ".join(f'"{c}"' for c in row) + "]" for row in figures)
    text = (
        "[mission]\nthreats = [" + ", ".join(threats) + "]\n"
        f"[plans]\nfigures = [\n{rows}\n]\n"
        f"[tiles]\nred = {TILES}\nwhite = {TILES}\nblue = {TILES}\n"
    )
    path = tmp_path / "plan.toml"
    path.write_text(text)
    return plan_file.resolve_file(path)


def test_contamination_knocks_out_a_figure_entering_a_contaminated_station_after_z(tmp_path):
    # SI2-04 at T1 on turn 1 (Z on turn 5); the figure maintains the computer, then moves red on
    # turn 7: "Z knock out + lasting effect", so it is knocked out entering upper red.
    card = ["C", "-", "-", "-", "-", "-", "red", "-", "-", "-", "-", "-"]
    log, result = resolve(
        tmp_path,
        ['{ turn = 1, threat = "SI2-04", zone = "internal", trajectory = "T1" }'],
        [card, IDLE, IDLE, IDLE],
    )
    assert find(log, "threat_action", 5, threat="SI2-04", action="Z")
    assert find(log, "knocked_out", 7, figure=0, by="SI2-04")
    assert result["knocked_out"] == 1 and result["score"] == 6 - 2  # survived 6, one figure out


def test_contamination_before_z_does_not_knock_out_newcomers(tmp_path):
    card = ["red", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"]  # enters upper red on turn 1
    log, result = resolve(
        tmp_path,
        ['{ turn = 1, threat = "SI2-04", zone = "internal", trajectory = "T1" }'],
        [card, IDLE, IDLE, IDLE],
    )
    assert find(log, "knocked_out", 5, figure=0, by="SI2-04")  # knocked out by Z itself, not on entering
    assert not find(log, "knocked_out", 1)


def test_crossed_wires_x_and_y_leak_in_its_own_zone_z_in_every_zone(tmp_path):
    # SI1-05 at T3 on turn 1 (X turn 2, Y turn 3, Z turn 4), no cards played. X: the white reactor
    # (3) fills the white shield (1 of 3) and the block it cannot hold leaks: 1 white. Y: the white
    # shield's 3 blocks leak: 3 white. Z: every reactor leaks into its own zone: red 2, blue 2.
    log, result = resolve(
        tmp_path, ['{ turn = 1, threat = "SI1-05", zone = "internal", trajectory = "T3" }'], [IDLE] * 4
    )
    attacks = [(e["turn"], e["zone"], e["strength"]) for e in find(log, "internal_attack") if e["strength"]]
    assert attacks == [(2, "white", 1), (3, "white", 3), (4, "red", 2), (4, "blue", 2)]
    assert result["won"] and result["tiles"] == [2, 4, 2]


# --- where the C# resolver differs and simkit keeps its reading (pinned here) ----------------
# Also pinned elsewhere: a threat's delay lands on the next turn (test_threats.py rows SE2-03-x,
# SE2-03-y, I2-05-y, SI2-04-x); Unstable Warheads appearing with no rocket aboard is destroyed at
# once (test_threats.py::test_unstable_warheads_without_rockets_is_destroyed_on_appearing).


def act(r, turn: int = 1) -> None:
    r.st.turn = turn
    for f in range(len(r.st.pos)):
        r.player_action(f)


def test_b_with_the_shield_above_capacity_moves_nothing_back():
    # B+1 may leave a shield above capacity [RB]; a later B finds no room and moves nothing:
    # it never pulls energy back into the reactor.
    st, r = make(plan("B"))
    st.pos[0] = UR
    st.reactor[0], st.shield[0] = 1, 3  # red shield capacity 2
    act(r)
    assert (st.reactor[0], st.shield[0]) == (1, 3)


def test_slime_stops_delaying_after_its_z():
    st, r = make(plan("lift", "B"))
    st.pos[0] = UB
    slime = put(st, "I2-01")  # Slime A in lower blue
    slime.status = SURVIVED  # its Z has been done: off the board
    act(r)
    assert st.pos[0] == LB and st.plans[0][2] == card_code("B")  # not delayed


def test_a_teleport_does_not_use_the_gravolift():
    # the heroic move teleports; the white gravolift stays free for the next user this turn
    st, r = make(plan("teleport lower white", "A"), plan("lift", "A"))
    act(r)
    assert st.pos == [LW, LW]
    assert st.plans[1][2] == card_code("A") and not events(r, "gravolift_delay")


def test_a_teleport_ignores_a_damaged_gravolift():
    st, r = make(plan("teleport lower white", "A"))
    st.lift_damaged[1] = True
    act(r)
    assert st.pos[0] == LW and st.plans[0][2] == card_code("A")


# --- readings kept where the sources disagree (RULES.md table) -------------------------------


def test_a_plus_one_after_a_plain_a_adds_its_strength():
    st, r = make(plan("A"), plan("A+1"))
    st.pos = [UR, UR]
    act(r)
    assert st.reactor[0] == 1 and r.fired_heavy[0] == 2  # one shot, one energy, +1 strength


def test_one_c_repairs_the_nuclear_device():
    st, r = make(plan("C"))
    st.pos[0] = LW
    th = put(st, "SI2-05")
    act(r)
    assert th.status == DESTROYED


def test_returning_from_the_interceptors_into_a_contaminated_station_knocks_out():
    st, r = make(plan("-"), plan("teleport upper blue"))
    st.pos[0] = SPACE
    st.contaminated = {UR: "SI2-04", UB: "SI2-04"}
    act(r)
    assert st.pos == [UR, UB] and st.knocked == [True, True]
