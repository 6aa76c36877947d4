"""Space Alert, "all hands on the guns": an example of a user's own crew.

Run it from the project folder with
    simkit simulate space-alert -n 2000 \
        --strategy scenarios/strategies/space_alert_all_guns.py:AllGuns

A crew strategy is built once per figure and answers RULES.md's "Player interface": `plan`, one
card per turn of the phase, and `transfer` at a Data Transfer. This one subclasses the built-in
`ScriptedPlayer` and changes only `plan`: there is no energy officer or security officer, every
figure is a heavy-laser gunner (figure 0 red, 1 white, 2 blue, 3 red again, ...), using the
scripted gunner's own routine (`_gunner`). Transfers stay scripted. The view holds the announced
threats only, never the damage tiles or the threats to come.
"""

from simkit.games.space_alert.players import Hand, ScriptedPlayer, forecast, position_after

ZONES = 3  # red, white, blue


class AllGuns(ScriptedPlayer):
    """Every figure mans the heavy laser of zone `figure % 3` and plans as the scripted gunner of
    that zone does (fetching its own energy, repairing its zone, helping a neighbour's laser)."""

    def plan(self, view):
        if view.phase == 0:
            self.bots_ok = True  # the scripted routines' battlebot flag, reset each mission
        start = view.comp.ship["start_station"]
        here = position_after(view.plans[view.figure], view.turns[0] - 1, start)
        threats = forecast(view.comp, view.threats)
        return self._gunner(view, threats, Hand(view), here, view.figure % ZONES)
