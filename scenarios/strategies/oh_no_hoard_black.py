"""Oh no... INVASION!!!, "hoard black weapons": an example of a user's own crew.

Run it from the project folder with
    simkit simulate oh-no-invasion -n 2000 \
        --strategy scenarios/strategies/oh_no_hoard_black.py:HoardBlack

A crew answers the decisions of RULES.md ("Player interface"); every seat gets its own object.
This one subclasses the built-in `CautiousCrew` (so it plays the cautious crew's numbers,
`CrewNumbers`, at their defaults) and changes only `zap`: a black weapon strikes any Shield alien
in the Final Conflict, so it is never spent on an invader in flight. Combat, countering and
striking stay cautious's.
"""

from simkit.games.oh_no_invasion.components import BLACK
from simkit.games.oh_no_invasion.players import CautiousCrew


class HoardBlack(CautiousCrew):
    """Zap as the cautious crew does, but only with a weapon of the invader's own colour: when
    the only card that could zap it is black, let the invader land and keep the card."""

    def zap(self, view, alien, target):
        card = super().zap(view, alien, target)
        if card is not None and view.comp.res_colour[card] == BLACK:
            return None
        return card
