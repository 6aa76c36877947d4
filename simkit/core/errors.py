"""The error types that reach the user as a single line: bad input (exit code 2), an unfinished run
(exit code 1); and a player's answer the rules refuse."""


class UserError(Exception):
    """Bad input from the user: an unknown name, a malformed file, a value out of range.

    The message is one line that names the file or option, the key and what is allowed.
    """


class RunIncomplete(Exception):
    """A run that ended without accounting for every planned game (a worker process died): the
    message is one line saying what is missing; the same command plays it."""


class RuleViolation(Exception):
    """A player returned something the rules do not allow: the message names the decision (and
    the seat, where the game has seats). Every game raises this one type."""
