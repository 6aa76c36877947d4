"""The one error type that reaches the user as a single line and exit code 2."""


class UserError(Exception):
    """Bad input from the user: an unknown name, a malformed file, a value out of range.

    The message is one line that names the file or option, the key and what is allowed.
    """
